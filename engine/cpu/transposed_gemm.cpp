#include "engine/cpu/transposed_gemm.h"

#include "engine/cpu/onednn_support.h"

namespace rnnprof::cpu {

namespace {

using dnnl::memory;

memory::desc strided(std::int64_t rows, std::int64_t cols, std::int64_t rowStride, std::int64_t colStride) {
    return memory::desc({rows, cols}, memory::data_type::f32, memory::dims{rowStride, colStride});
}

// a^T [m, k] is a [k, m] read with its strides swapped.
memory::desc aView(const TransposedGemm::Shape& s) {
    return strided(s.m, s.k, 1, s.lda);
}
memory::desc bView(const TransposedGemm::Shape& s) {
    return strided(s.k, s.n, s.ldb, 1);
}
memory::desc cView(const TransposedGemm::Shape& s) {
    return strided(s.m, s.n, s.ldc, 1);
}

// Call with OpenMP's count set to the threads the primitive will run with (oneDNN sizes it then).
dnnl::matmul::primitive_desc describe(const dnnl::engine& engine, const TransposedGemm::Shape& shape) {
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    return dnnl::matmul::primitive_desc(dnnl::matmul::desc(aView(shape), bView(shape), cView(shape)), attr,
                                        engine);
}

} // namespace

std::uint64_t TransposedGemm::scratchpadBytes(const dnnl::engine& engine, const Shape& shape, int threads) {
    return oneDnnCall("matmul for a weight gradient", [&] {
        const OmpThreadCount count(threads);
        return std::uint64_t(describe(engine, shape).scratchpad_desc().get_size());
    });
}

TransposedGemm::TransposedGemm(const dnnl::engine& engine, const Shape& shape, int threads)
    : m_threads(threads) {
    oneDnnCall("matmul for a weight gradient", [&] {
        const OmpThreadCount count(threads);
        m_pd = describe(engine, shape);
        m_matmul = dnnl::matmul(m_pd);
        m_stream = dnnl::stream(engine);
        m_a = memory(aView(shape), engine, DNNL_MEMORY_NONE);
        m_b = memory(bView(shape), engine, DNNL_MEMORY_NONE);
        m_c = memory(cView(shape), engine, DNNL_MEMORY_NONE);
        m_scratchpad = memory(m_pd.scratchpad_desc(), engine, DNNL_MEMORY_NONE);
        // Built once: the map holds handles of these memory objects, so run() only swaps pointers.
        m_args = {{DNNL_ARG_SRC, m_a},
                  {DNNL_ARG_WEIGHTS, m_b},
                  {DNNL_ARG_DST, m_c},
                  {DNNL_ARG_SCRATCHPAD, m_scratchpad}};
    });
}

void TransposedGemm::run(const float* a, const float* b, float* c, void* scratchpad) {
    oneDnnCall("matmul for a weight gradient", [&] {
        const OmpThreadCount count(m_threads);
        m_a.set_data_handle(const_cast<float*>(a));
        m_b.set_data_handle(const_cast<float*>(b));
        m_c.set_data_handle(c);
        m_scratchpad.set_data_handle(scratchpad);
        m_matmul.execute(m_stream, m_args);
        m_stream.wait();
    });
}

std::string TransposedGemm::implementation() const {
    return m_pd.impl_info_str();
}

bool transposedGemmPays(const TransposedGemm::Shape& shape) {
    return shape.lda % 512 == 0 && shape.m >= 1024 && shape.n <= 512 && shape.k >= 1024;
}

} // namespace rnnprof::cpu
