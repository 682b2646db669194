#include "engine/cpu/packed_gemm.h"

#include "engine/cpu/kernel_runner.h"
#include "engine/cpu/onednn_packed_sgemm.h"
#include "engine/cpu/onednn_support.h"

#include <algorithm>
#include <cstring>

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

// The columns of each chunk but the last (columnChunkWidth()) on this machine's L2; 0: no chunks.
std::int64_t chunkWidthHere(const PackedGemm::Shape& shape, int threads) {
    return columnChunkWidth(shape, threads, l2CacheBytes());
}

// The shapes of the products on column chunks of `per` columns (the last one the rest).
std::vector<PackedGemm::Shape> chunkShapes(const PackedGemm::Shape& s, std::int64_t per) {
    std::vector<PackedGemm::Shape> chunks;
    for (std::int64_t n0 = 0; n0 < s.n; n0 += per) {
        chunks.push_back(s);
        chunks.back().n = std::min(per, s.n - n0);
    }
    return chunks;
}

// The bytes of one product over all of the shape's columns.
std::uint64_t wholeRequiredBytes(const dnnl::engine& engine, const PackedGemm::Shape& shape, int threads) {
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

} // namespace

bool runsOnPackedSgemm(const PackedGemm::Shape& shape) {
    return packedSgemmPays(shape) && packedSgemmAvailable();
}

std::int64_t columnChunkWidth(const PackedGemm::Shape& s, int threads, std::int64_t l2Bytes) {
    const std::int64_t bytes = s.k * s.n * std::int64_t(sizeof(float));
    if (threads != 1 || s.m > kChunkedMaxRows || l2Bytes <= 0 || bytes <= l2Bytes ||
        bytes > kChunkedMaxL2s * l2Bytes)
        return 0;
    const std::int64_t halfL2 = l2Bytes / 2 / (s.k * std::int64_t(sizeof(float))); // columns
    return std::max<std::int64_t>(16, halfL2 / 16 * 16);
}

int columnChunks(const PackedGemm::Shape& s, int threads, std::int64_t l2Bytes) {
    const std::int64_t width = columnChunkWidth(s, threads, l2Bytes);
    return width == 0 ? 1 : int((s.n + width - 1) / width);
}

std::uint64_t PackedGemm::requiredBytes(const dnnl::engine& engine, const Shape& shape, int threads) {
    const std::int64_t per = chunkWidthHere(shape, threads);
    if (per == 0) return wholeRequiredBytes(engine, shape, threads);
    std::uint64_t bytes = shape.m > 1 ? std::uint64_t(shape.m * shape.n) * sizeof(float) : 0;
    for (const Shape& chunk : chunkShapes(shape, per))
        bytes += wholeRequiredBytes(engine, chunk, threads);
    return bytes;
}

PackedGemm::PackedGemm(const dnnl::engine& engine, const Shape& shape, int threads)
    : m_shape(shape), m_threads(threads), m_engine(engine) {
    const std::int64_t per = chunkWidthHere(shape, threads);
    if (per == 0) {
        create(engine, threads);
        return;
    }
    m_chunkWidth = per;
    const std::vector<Shape> shapes = chunkShapes(shape, per);
    m_chunks.reserve(shapes.size());
    for (const Shape& chunk : shapes)
        m_chunks.push_back(PackedGemm(engine, chunk, threads, Whole{}));
    if (shape.m > 1) m_chunkOut.resize(std::size_t(shape.m * shape.n));
}

PackedGemm::PackedGemm(const dnnl::engine& engine, const Shape& shape, int threads, Whole)
    : m_shape(shape), m_threads(threads), m_engine(engine) {
    create(engine, threads);
}

std::int64_t PackedGemm::chunkStart(std::size_t chunk) const {
    return std::int64_t(chunk) * m_chunkWidth;
}

void PackedGemm::create(const dnnl::engine& engine, int threads) {
    const Shape& shape = m_shape;
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
    for (std::size_t i = 0; i < m_chunks.size(); ++i)
        m_chunks[i].pack(w + chunkStart(i) * strideN, strideK, strideN);
    if (!m_chunks.empty()) return;
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
    if (!m_chunks.empty()) {
        const std::size_t count = m_chunks.size();
        const bool backwards = (m_calls++ & 1) != 0;
        for (std::size_t step = 0; step < count; ++step) {
            const std::size_t i = backwards ? count - 1 - step : step;
            PackedGemm& chunk = m_chunks[i];
            const std::int64_t n0 = chunkStart(i), width = chunk.shape().n;
            if (m_shape.m == 1) { // one row: the chunk's columns are dense in c
                chunk.run(a, c + n0);
                continue;
            }
            float* out = m_chunkOut.data() + m_shape.m * n0; // dense [m, width]
            chunk.run(a, out);
            for (std::int64_t r = 0; r < m_shape.m; ++r)
                std::memcpy(c + r * m_shape.n + n0, out + r * width, std::size_t(width) * sizeof(float));
        }
        return;
    }
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
    if (!m_chunks.empty())
        return m_chunks.front().implementation() + " in " + std::to_string(m_chunks.size()) +
               " column chunks, every other call last to first";
    return m_sgemm ? "packed sgemm" : m_pd.impl_info_str();
}

std::uint64_t PackedGemm::bytes() const {
    if (!m_chunks.empty()) {
        std::uint64_t bytes = m_chunkOut.size() * sizeof(float);
        for (const PackedGemm& chunk : m_chunks)
            bytes += chunk.bytes();
        return bytes;
    }
    if (m_sgemm) return m_sgemmPacked.size() * sizeof(float);
    return m_packed.get_desc().get_size() + m_scratchpad.get_desc().get_size();
}

} // namespace rnnprof::cpu
