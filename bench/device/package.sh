#!/bin/bash
# Packs the optimised tool and benchmark binaries, the Debian shared libraries they load
# (ldd; libc, libm, libgcc_s and libstdc++ are left to the target, whose versions are newer),
# the embedded KOS corpus (as runfiles), MovieLens 100k and bench/device/scaling.sh into
# devpkg/ (ignored by git: add "/devpkg/" to .git/info/exclude), for a machine without Bazel
# or Abseil, e.g. the 16-core device machine (Ubuntu 24.04, glibc 2.39 >= this box's 2.36).
# Open MPI's own libraries go to devpkg/lib_mpi, unused by default: the target's mpirun
# (Open MPI 4.1.6 there) brings its own libmpi.so.40.
#   bench/device/package.sh && du -sh devpkg    # about 28 MB
#   LDA_BASE=/path/to/an/older/lda bench/device/package.sh   # also packs it as bin/lda_base
#   on the target:  bash devpkg/scaling.sh [all | SECTION...]   (ldacmp: lda_base against lda)
# An older lda binary: git worktree add /tmp/lda_base REV && (cd /tmp/lda_base && ln -s
# /work/shared ../shared; ./bazelw build --config=bench //tools:lda), then
# LDA_BASE=/tmp/lda_base/bazel-out/k8-opt/bin/tools/lda.
set -eu
cd "$(dirname "$0")/../.."
targets=(tools/lda models/lda/lda_benchmark tools/matrix_factorization tools/matrix_factorization_mpi
         tools/accelerated_dp models/dp/neal8_benchmark models/mf/matrix_factorization_benchmark
         tools/lda_distributed tools/lda_distributed_mpi tools/lda_generate_corpus
         models/lda/gibbs_benchmark)
labels=()
for t in "${targets[@]}"; do labels+=("//${t%/*}:${t##*/}"); done
./bazelw build --config=bench "${labels[@]}"
rm -rf devpkg/bin devpkg/lib devpkg/lib_mpi
mkdir -p devpkg/bin devpkg/lib devpkg/lib_mpi devpkg/data devpkg/runfiles/sgmcmc/data/kos
for t in "${targets[@]}"; do
  cp -f "bazel-out/k8-opt/bin/${t}" devpkg/bin/
  ldd "bazel-out/k8-opt/bin/${t}" | awk '{print $3}' | grep '^/' || true
done | sort -u | while read -r lib; do
  case "${lib}" in
    *libc.so*|*libm.so*|*libgcc_s*|*libstdc++*) ;;
    *libmpi*|*open-rte*|*open-pal*|*hwloc*|*libevent*|*libudev*) cp -L "${lib}" devpkg/lib_mpi/ ;;
    *) cp -L "${lib}" devpkg/lib/ ;;
  esac
done
if [[ -n "${LDA_BASE:-}" ]]; then cp -f "${LDA_BASE}" devpkg/bin/lda_base; fi
cp data/kos/docword.kos.txt.gz data/kos/vocab.kos.txt devpkg/runfiles/sgmcmc/data/kos/
cp ../shared/data/movielens-100k/u.data.gz devpkg/data/
# The first 5,000 training and 1,000 test images of Debian's dataset-fashion-mnist (the whole
# files would not fit the device's 64 MiB transfer).
mkdir -p devpkg/fm
/usr/bin/python3 - <<'PY'
import gzip, struct
for name, n in [("train-images-idx3-ubyte.gz", 5000), ("t10k-images-idx3-ubyte.gz", 1000)]:
    with gzip.open("/usr/share/datasets/fashion-mnist/" + name, "rb") as f:
        magic, _, rows, cols = struct.unpack(">IIII", f.read(16))
        pixels = f.read(n * rows * cols)
    with gzip.open("devpkg/fm/" + name, "wb") as g:
        g.write(struct.pack(">IIII", magic, n, rows, cols) + pixels)
PY
cp bench/device/scaling.sh bench/device/kos100.textpb bench/accelerated_dp_section41.sh \
   bench/accelerated_dp_section41_table.py devpkg/
echo "devpkg: $(du -sh devpkg | cut -f1)"
