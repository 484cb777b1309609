"""Topic extraction written for scikit-learn's LatentDirichletAllocation, unchanged but for
its import line: python/tests/sklearn_compat_test.py runs it as is and with

    from sklearn.decomposition import LatentDirichletAllocation

replaced by

    from sgmcmc import LDA as LatentDirichletAllocation

Documents are drawn from three planted topics (disjoint word lists), so the top words show
whether the topics were found.
"""

import numpy as np
from sklearn.decomposition import LatentDirichletAllocation
from sklearn.feature_extraction.text import CountVectorizer

rng = np.random.RandomState(0)
planted = [["apple", "banana", "cherry", "grape", "lemon", "mango", "peach", "plum"],
           ["bolt", "drill", "hammer", "nail", "saw", "screw", "wrench", "chisel"],
           ["cello", "drum", "flute", "harp", "oboe", "piano", "tuba", "violin"]]
documents = [" ".join(rng.choice(planted[rng.randint(3)], size=40)) for _ in range(300)]

tf_vectorizer = CountVectorizer(max_df=0.95, min_df=2)
tf = tf_vectorizer.fit_transform(documents)

lda = LatentDirichletAllocation(n_components=3, max_iter=60, learning_method="online",
                                learning_offset=50.0, learning_decay=0.7, batch_size=64,
                                doc_topic_prior=0.1, topic_word_prior=0.01, evaluate_every=-1,
                                n_jobs=1, verbose=0, random_state=0)
lda.fit(tf)

names = tf_vectorizer.get_feature_names_out()
for topic in lda.components_:
    print("topic:", " ".join(sorted(names[i] for i in topic.argsort()[:-6:-1])))
print("doc-topic shape:", lda.transform(tf[:5]).shape)
print("perplexity positive:", bool(lda.perplexity(tf) > 0))
lda.set_output(transform="pandas")
print("columns:", list(lda.transform(tf[:5]).columns))
