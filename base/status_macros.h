// Status propagation macros: SGMCMC_RETURN_IF_ERROR and SGMCMC_ASSIGN_OR_RETURN.
//
// Example:
//   SGMCMC_RETURN_IF_ERROR(options.Validate());
//   SGMCMC_ASSIGN_OR_RETURN(Corpus corpus, ReadUciCorpus(path));
#ifndef SGMCMC_BASE_STATUS_MACROS_H_
#define SGMCMC_BASE_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define SGMCMC_RETURN_IF_ERROR(expr)                      \
  do {                                                    \
    const ::absl::Status sgmcmc_status_ = (expr);         \
    if (!sgmcmc_status_.ok()) return sgmcmc_status_;      \
  } while (false)

#define SGMCMC_STATUS_CONCAT_INNER_(a, b) a##b
#define SGMCMC_STATUS_CONCAT_(a, b) SGMCMC_STATUS_CONCAT_INNER_(a, b)

#define SGMCMC_ASSIGN_OR_RETURN(lhs, expr) \
  SGMCMC_ASSIGN_OR_RETURN_IMPL_(SGMCMC_STATUS_CONCAT_(sgmcmc_statusor_, __LINE__), lhs, expr)

#define SGMCMC_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                                  \
  if (!statusor.ok()) return std::move(statusor).status(); \
  lhs = std::move(statusor).value()

#endif  // SGMCMC_BASE_STATUS_MACROS_H_
