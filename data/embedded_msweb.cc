#include "data/embedded_msweb.h"

#include <string>
#include <utility>
#include <vector>

#include "base/status_macros.h"
#include "data/runfiles_path.h"

namespace sgmcmc::data {
namespace {

constexpr char kTrain[] = "sgmcmc/data/msweb/msweb_train_subset.data.gz";
constexpr char kTest[] = "sgmcmc/data/msweb/msweb_test_subset.test.gz";

}  // namespace

absl::StatusOr<EmbeddedMsweb> LoadEmbeddedMsweb(const std::string& argv0) {
  SGMCMC_ASSIGN_OR_RETURN(
      const std::vector<std::string> paths,
      RunfilesPaths(argv0, {kTrain, kTest}, "embedded msweb",
                    "; does the target depend on //data:embedded_msweb?"));
  const std::string& train_path = paths[0];
  const std::string& test_path = paths[1];
  EmbeddedMsweb msweb;
  absl::StatusOr<MswebData> train = ReadMsweb(train_path);
  if (!train.ok()) return train.status();
  msweb.train = std::move(*train);
  absl::StatusOr<MswebData> test = ReadMsweb(test_path, &msweb.train.vroots);
  if (!test.ok()) return test.status();
  msweb.test = std::move(*test);
  return msweb;
}

}  // namespace sgmcmc::data
