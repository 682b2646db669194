// cudnn_sizes: asks cuDNN for its RNN buffer sizes (cudnnGetRNNWeightSpaceSize,
// cudnnGetRNNTempSpaceSizes) over a grid, through the session's own CudnnRnnSetup, and prints
// one CSV row per configuration in the format of tests/data/cudnn/cudnn-rnn-sizes-h100.csv plus
// a dropout column. It is how the size tables behind engine/gpu/cudnn_memory.cpp's estimate are
// made on another GPU or cuDNN version. Needs a GPU; run it through the GPU bundle:
//   bash .gpu-bundle/run.sh cudnn_sizes --seq-len 1-200 > sizes.csv
// Every flag takes a list in the grammar of profiling/int_list.h (e.g. 1,8,64 or 1..512 or 1-200):
//   --input-size --hidden-size --layers --batch --seq-len
// and comma lists: --cell lstm,gru --algo standard,persist_static,... --bidirectional 0,1
// --dropout-percent 0,30.
#include "engine/error.h"
#include "engine/gpu/cudnn_rnn_setup.h"
#include "profiling/int_list.h"

#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace rnnprof {
namespace {

std::vector<std::string> splitNames(const std::string& text) {
    std::vector<std::string> names;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) names.push_back(item);
    return names;
}

struct Grid {
    std::map<std::string, std::string> lists{
        {"--cell", "lstm,gru"},        {"--algo", "standard"},  {"--input-size", "64,128,512"},
        {"--hidden-size", "64..1024"}, {"--layers", "1,2"},     {"--bidirectional", "0,1"},
        {"--batch", "1,8,64,512"},     {"--seq-len", "10,100"}, {"--dropout-percent", "0"},
    };
    std::vector<int> ints(const std::string& flag) const {
        const IntListParse parsed = parseIntList(lists.at(flag), 1 << 20);
        if (!parsed.ok()) throw Error(ErrorKind::InvalidInput, flag + ": " + parsed.error);
        return parsed.values;
    }
};

// 0 (success), 3000 (CUDNN_STATUS_NOT_SUPPORTED, the table's "this algorithm cannot") or -1.
int statusOf(const Error& e) {
    return e.kind() == ErrorKind::Unsupported ? 3000 : -1;
}

int run(const Grid& grid) {
    gpu::CudnnHandle handle;
    gpu::CudaStream stream;
    std::printf("cudnn_version,cell,algo,input_size,hidden_size,layers,bidirectional,batch,seq_len,mode,"
                "dropout,status,weight_space_bytes,workspace_bytes,reserve_bytes\n");
    std::vector<int> bidirectional;
    for (const std::string& b : splitNames(grid.lists.at("--bidirectional")))
        bidirectional.push_back(b == "1");
    for (const std::string& cellName : splitNames(grid.lists.at("--cell")))
        for (const std::string& algoName : splitNames(grid.lists.at("--algo")))
            for (int input : grid.ints("--input-size"))
                for (int hidden : grid.ints("--hidden-size"))
                    for (int layers : grid.ints("--layers"))
                        for (int bi : bidirectional)
                            for (int batch : grid.ints("--batch"))
                                for (int seqLen : grid.ints("--seq-len"))
                                    for (Mode mode : {Mode::Inference, Mode::Training})
                                        for (const std::string& percent :
                                             splitNames(grid.lists.at("--dropout-percent"))) {
                                            const int dropout = std::stoi(percent);
                                            Problem p;
                                            const auto cell = parseCell(cellName);
                                            const auto algo = parseCudnnAlgo(algoName);
                                            if (!cell || !algo)
                                                throw Error(ErrorKind::InvalidInput,
                                                            "unknown cell or algorithm: " + cellName + ", " +
                                                                algoName);
                                            p.config.cell = *cell;
                                            p.options.cudnnAlgo = *algo;
                                            p.config.inputSize = input;
                                            p.config.hiddenSize = hidden;
                                            p.config.layers = layers;
                                            p.config.bidirectional = bi != 0;
                                            p.config.dropout = dropout / 100.0;
                                            p.shape = {batch, seqLen};
                                            p.mode = mode;
                                            int status = 0;
                                            gpu::CudnnSpaceSizes s;
                                            try {
                                                s = gpu::CudnnRnnSetup(handle.get(), stream.get(), p)
                                                        .spaces();
                                            } catch (const Error& e) {
                                                status = statusOf(e);
                                            }
                                            std::printf(
                                                "%zu,%s,%s,%d,%d,%d,%d,%d,%d,%s,%.2f,%d,%llu,%llu,%llu\n",
                                                cudnnGetVersion(), cellName.c_str(), algoName.c_str(), input,
                                                hidden, layers, bi, batch, seqLen,
                                                mode == Mode::Training ? "train" : "infer", dropout / 100.0,
                                                status, (unsigned long long)s.weightSpace,
                                                (unsigned long long)s.workspace,
                                                (unsigned long long)s.reserve);
                                        }
    return 0;
}

} // namespace
} // namespace rnnprof

int main(int argc, char** argv) {
    rnnprof::Grid grid;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!grid.lists.count(argv[i])) {
            std::fprintf(stderr,
                         "cudnn_sizes: unknown flag %s (see the header of tests/bench/cudnn_sizes.cpp)\n",
                         argv[i]);
            return 2;
        }
        grid.lists[argv[i]] = argv[i + 1];
    }
    try {
        return rnnprof::run(grid);
    } catch (const rnnprof::Error& e) {
        std::fprintf(stderr, "cudnn_sizes: %s\n", e.what());
        return 1;
    }
}
