#include "support/pytorch_fixture.h"

#include "engine/npy.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace rnnprof::test {
namespace {

nlohmann::json manifest() {
    std::ifstream in(testDataDir() + "/pytorch/manifest.json");
    if (!in) throw std::runtime_error("missing tests/data/pytorch/manifest.json");
    return nlohmann::json::parse(in);
}

Tensor<double> load(const std::string& path) {
    return readNpyTensor<double>(path, std::vector<std::int64_t>(readNpy(path).shape.size(), -1));
}

ParamSet<double> loadParams(const RnnConfig& config, const std::string& dir, const std::string& prefix) {
    ParamSet<double> p(config);
    for (const auto& spec : p.layout.specs()) {
        const auto t = readNpyTensor<double>(dir + "/" + prefix + spec.name + ".npy", spec.shape());
        std::copy(t.data.begin(), t.data.end(), p.data(spec));
    }
    return p;
}

} // namespace

std::string testDataDir() {
    return RNNPROF_TEST_DATA;
}

std::vector<std::string> pytorchCaseNames() {
    std::vector<std::string> names;
    const nlohmann::json m = manifest(); // keep alive: a range-for over m["cases"] of a temporary dangles
    for (const auto& c : m["cases"])
        names.push_back(c["name"].get<std::string>());
    return names;
}

PytorchCase loadPytorchCase(const std::string& name) {
    PytorchCase pc;
    const nlohmann::json m = manifest();
    for (const auto& c : m["cases"]) {
        if (c["name"] != name) continue;
        pc.name = name;
        pc.dir = testDataDir() + "/pytorch/" + name;
        pc.config.cell = c["cell"] == "lstm" ? CellType::Lstm : CellType::Gru;
        pc.config.inputSize = c["input_size"];
        pc.config.hiddenSize = c["hidden_size"];
        pc.config.layers = c["layers"];
        pc.config.bidirectional = c["bidirectional"];
        pc.config.bias = c["bias"];
        pc.shape = {c["batch"].get<int>(), c["seq_len"].get<int>()};
        pc.lossBeforeStep = c["loss_before_step"];
    }
    if (pc.name.empty()) throw std::runtime_error("no PyTorch case named " + name);
    const std::string& d = pc.dir;
    const bool lstm = pc.config.cell == CellType::Lstm;
    pc.params = loadParams(pc.config, d, "");
    pc.gradParams = loadParams(pc.config, d, "grad_");
    pc.paramsAfterSgd = loadParams(pc.config, d + "/sgd", "");
    pc.x = load(d + "/x.npy");
    pc.h0 = load(d + "/h0.npy");
    pc.output = load(d + "/output.npy");
    pc.hN = load(d + "/h_n.npy");
    pc.dy = load(d + "/dy.npy");
    pc.dhN = load(d + "/dh_n.npy");
    pc.target = load(d + "/target.npy");
    pc.gradInput = load(d + "/grad_input.npy");
    pc.gradH0 = load(d + "/grad_h0.npy");
    if (lstm) {
        pc.c0 = load(d + "/c0.npy");
        pc.cN = load(d + "/c_n.npy");
        pc.dcN = load(d + "/dc_n.npy");
        pc.gradC0 = load(d + "/grad_c0.npy");
    }
    return pc;
}

} // namespace rnnprof::test
