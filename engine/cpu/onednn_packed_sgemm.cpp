#include "engine/cpu/onednn_packed_sgemm.h"

#include "engine/error.h"

#include <dlfcn.h>

#include <algorithm>
#include <string>

namespace rnnprof::cpu {

namespace {

// oneDNN's dim_t is int64_t; the functions return dnnl_status_t (dnnl_success = 0).
using Dim = std::int64_t;
using GetSizeFn = int (*)(const char*, const char*, const char*, const Dim*, const Dim*, const Dim*,
                          const Dim*, const Dim*, std::size_t*, bool*);
using PackFn = int (*)(const char*, const char*, const char*, const Dim*, const Dim*, const Dim*, const Dim*,
                       const Dim*, const float*, float*);
using ComputeFn = int (*)(const char*, const char*, const Dim*, const Dim*, const Dim*, const float*,
                          const Dim*, const float*, const Dim*, const float*, float*, const Dim*);

struct Api {
    GetSizeFn getSize = nullptr;
    PackFn pack = nullptr;
    ComputeFn compute = nullptr;
};

// The mangled names of dnnl::impl::cpu::sgemm_pack_get_size, sgemm_pack and sgemm_compute with
// the parameter lists above (oneDNN 2.x).
const Api& api() {
    static const Api a = [] {
        Api found;
        found.getSize = reinterpret_cast<GetSizeFn>(
            dlsym(RTLD_DEFAULT, "_ZN4dnnl4impl3cpu19sgemm_pack_get_sizeEPKcS3_S3_PKlS5_S5_S5_S5_PmPb"));
        found.pack = reinterpret_cast<PackFn>(
            dlsym(RTLD_DEFAULT, "_ZN4dnnl4impl3cpu10sgemm_packEPKcS3_S3_PKlS5_S5_S5_S5_PKfPf"));
        found.compute = reinterpret_cast<ComputeFn>(
            dlsym(RTLD_DEFAULT, "_ZN4dnnl4impl3cpu13sgemm_computeEPKcS3_PKlS5_S5_PKfS5_S7_S5_S7_PfS5_"));
        return found;
    }();
    return a;
}

void check(int status, const char* what) {
    if (status != 0)
        throw Error(ErrorKind::BackendFailure, std::string("oneDNN packed sgemm: ") + what +
                                                   " failed (status " + std::to_string(status) + ")");
}

const Api& availableApi() {
    if (!packedSgemmAvailable())
        throw Error(ErrorKind::BackendFailure, "oneDNN packed sgemm: this oneDNN does not export it");
    return api();
}

} // namespace

bool packedSgemmAvailable() {
    const Api& a = api();
    return a.getSize && a.pack && a.compute;
}

// In column-major terms the product is c^T[n, m] = W^T[n, k] * a^T[k, m]: W^T is BLAS's A (the
// packed operand, "A"), a^T its B, untransposed with ldb = lda.
// The size depends on how the weights are laid out, which only pack() learns (W's rows or its
// columns contiguous: BLAS's A transposed or not; at K = 512, N = 1536 the second needs 32 KiB more),
// so it is the larger of the two.
std::size_t packedSgemmBytes(const PackedGemm::Shape& s) {
    const Api& a = availableApi();
    const char id = 'A', tb = 'N';
    const Dim m = s.n, n = s.m, k = s.k, ldb = s.lda;
    std::size_t most = 0;
    for (const char ta : {'T', 'N'}) {
        const Dim lda = ta == 'T' ? s.k : s.n;
        std::size_t bytes = 0;
        bool pack = false;
        check(a.getSize(&id, &ta, &tb, &m, &n, &k, &lda, &ldb, &bytes, &pack), "size query");
        most = std::max(most, bytes);
    }
    return most;
}

void packedSgemmPack(const PackedGemm::Shape& s, const float* w, std::int64_t strideK, std::int64_t strideN,
                     float* packed, std::size_t bytes) {
    const Api& a = availableApi();
    if (strideK != 1 && strideN != 1)
        throw Error(ErrorKind::BackendFailure, "oneDNN packed sgemm: weights with no unit stride");
    // W^T[nn, kk] = w[nn * strideN + kk] is column-major [k, n] with ld strideN, so BLAS's A is
    // transposed; w[kk * strideK + nn] is W^T column-major with ld strideK.
    const char id = 'A', ta = strideK == 1 ? 'T' : 'N', tb = 'N';
    const Dim m = s.n, n = s.m, k = s.k, lda = strideK == 1 ? strideN : strideK, ldb = s.lda;
    std::size_t needed = 0;
    bool pack = false;
    check(a.getSize(&id, &ta, &tb, &m, &n, &k, &lda, &ldb, &needed, &pack), "size query");
    if (needed > bytes)
        throw Error(ErrorKind::BackendFailure, "oneDNN packed sgemm: packing needs " +
                                                   std::to_string(needed) + " bytes, " +
                                                   std::to_string(bytes) + " allocated");
    check(a.pack(&id, &ta, &tb, &m, &n, &k, &lda, &ldb, w, packed), "packing");
}

void packedSgemmCompute(const PackedGemm::Shape& s, const float* packed, const float* in, float* c) {
    const Api& a = availableApi();
    const char ta = 'P', tb = 'N';
    const Dim m = s.n, n = s.m, k = s.k, lda = s.k, ldb = s.lda, ldc = s.n;
    const float beta = 0.0f;
    check(a.compute(&ta, &tb, &m, &n, &k, packed, &lda, in, &ldb, &beta, c, &ldc), "product");
}

} // namespace rnnprof::cpu
