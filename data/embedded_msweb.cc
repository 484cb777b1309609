#include "data/embedded_msweb.h"

#include <string>
#include <utility>
#include <vector>

#include "base/status_macros.h"
#include "data/runfiles_path.h"

namespace sgmcmc::data {

absl::StatusOr<EmbeddedMsweb> LoadEmbeddedMsweb(const std::string& argv0) {
  SGMCMC_ASSIGN_OR_RETURN(const std::vector<std::string> paths,
                          RunfilesPaths(argv0,
                                        {"sgmcmc/data/msweb/msweb_train_subset.data.gz",
                                         "sgmcmc/data/msweb/msweb_test_subset.test.gz"},
                                        "embedded msweb",
                                        "; does the target depend on //data:embedded_msweb?"));
  EmbeddedMsweb msweb;
  absl::StatusOr<MswebData> train = ReadMsweb(paths[0]);
  if (!train.ok()) return train.status();
  msweb.train = std::move(*train);
  absl::StatusOr<MswebData> test = ReadMsweb(paths[1], &msweb.train.vroots);
  if (!test.ok()) return test.status();
  msweb.test = std::move(*test);
  return msweb;
}

}  // namespace sgmcmc::data
