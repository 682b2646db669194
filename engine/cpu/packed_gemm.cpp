#include "engine/cpu/packed_gemm.h"

#include "engine/cpu/onednn_packed_sgemm.h"
#include "engine/cpu/onednn_support.h"

namespace rnnprof::cpu {

namespace {

using dnnl::memory;

memory::desc strided(std::int64_t rows, std::int64_t cols, std::int64_t rowStride, std::int64_t colStride) {
    return memory::desc({rows, cols}, memory::data_type::f32, memory::dims{rowStride, colStride});
}

// Call with OpenMP's count set to the threads the primitive will run with (oneDNN sizes it then).
dnnl::matmul::primitive_desc describe(const dnnl::engine& engine, const PackedGemm::Shape& shape) {
    const memory::desc src = strided(shape.m, shape.k, shape.lda, 1);
    const memory::desc dst = strided(shape.m, shape.n, shape.n, 1);
    const memory::desc weights({shape.k, shape.n}, memory::data_type::f32, memory::format_tag::any);
    // Our own scratchpad: team threads execute their primitives concurrently, and a scratchpad
    // held by the primitive is neither shared nor allocated per call.
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    return dnnl::matmul::primitive_desc(dnnl::matmul::desc(src, weights, dst), attr, engine);
}

// The floats of the packed sgemm's buffer: its bytes rounded up.
std::uint64_t sgemmFloats(const PackedGemm::Shape& s) {
    return (packedSgemmBytes(s) + sizeof(float) - 1) / sizeof(float);
}

} // namespace

bool runsOnPackedSgemm(const PackedGemm::Shape& shape) {
    return packedSgemmPays(shape) && packedSgemmAvailable();
}

std::uint64_t PackedGemm::requiredBytes(const dnnl::engine& engine, const Shape& shape, int threads) {
    if (runsOnPackedSgemm(shape)) {
        const OmpThreadCount count(threads); // its layout depends on the threads
        return sgemmFloats(shape) * sizeof(float);
    }
    return oneDnnCall("matmul with packed weights", [&] {
        const OmpThreadCount count(threads);
        const dnnl::matmul::primitive_desc pd = describe(engine, shape);
        return std::uint64_t(pd.weights_desc().get_size() + pd.scratchpad_desc().get_size());
    });
}

PackedGemm::PackedGemm(const dnnl::engine& engine, const Shape& shape, int threads)
    : m_shape(shape), m_threads(threads), m_engine(engine) {
    if (runsOnPackedSgemm(shape)) {
        const OmpThreadCount count(threads);
        m_sgemm = true;
        m_sgemmPacked.resize(std::size_t(sgemmFloats(shape)));
        return;
    }
    oneDnnCall("matmul with packed weights", [&] {
        const OmpThreadCount count(threads);
        const memory::desc src = strided(shape.m, shape.k, shape.lda, 1);
        const memory::desc dst = strided(shape.m, shape.n, shape.n, 1);
        m_pd = describe(engine, shape);
        m_matmul = dnnl::matmul(m_pd);
        m_stream = dnnl::stream(engine);
        m_packed = memory(m_pd.weights_desc(), engine);
        m_src = memory(src, engine, DNNL_MEMORY_NONE);
        m_dst = memory(dst, engine, DNNL_MEMORY_NONE);
        m_scratchpad = memory(m_pd.scratchpad_desc(), engine);
        // Built once: the map holds handles of these memory objects, so run() only swaps pointers.
        m_args = {{DNNL_ARG_SRC, m_src},
                  {DNNL_ARG_WEIGHTS, m_packed},
                  {DNNL_ARG_DST, m_dst},
                  {DNNL_ARG_SCRATCHPAD, m_scratchpad}};
    });
}

void PackedGemm::pack(const float* w, std::int64_t strideK, std::int64_t strideN) {
    if (m_sgemm) {
        const OmpThreadCount count(m_threads);
        return packedSgemmPack(m_shape, w, strideK, strideN, m_sgemmPacked.data(),
                               m_sgemmPacked.size() * sizeof(float));
    }
    oneDnnCall("reorder of packed weights", [&] {
        memory plain(strided(m_shape.k, m_shape.n, strideK, strideN), m_engine, const_cast<float*>(w));
        dnnl::reorder(plain, m_packed).execute(m_stream, plain, m_packed);
        m_stream.wait();
    });
}

void PackedGemm::run(const float* a, float* c) {
    if (m_sgemm) {
        // The packed layout splits the work among the threads it was packed for.
        const OmpThreadCount count(m_threads);
        return packedSgemmCompute(m_shape, m_sgemmPacked.data(), a, c);
    }
    oneDnnCall("matmul with packed weights", [&] {
        m_src.set_data_handle(const_cast<float*>(a));
        m_dst.set_data_handle(c);
        m_matmul.execute(m_stream, m_args);
        m_stream.wait();
    });
}

std::string PackedGemm::implementation() const {
    return m_sgemm ? "packed sgemm" : m_pd.impl_info_str();
}

std::uint64_t PackedGemm::bytes() const {
    if (m_sgemm) return m_sgemmPacked.size() * sizeof(float);
    return m_packed.get_desc().get_size() + m_scratchpad.get_desc().get_size();
}

} // namespace rnnprof::cpu
