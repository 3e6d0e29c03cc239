// 5d-index: reads 5dpgn collections. For now its check mode: replay and validate every game.
#include <boost/program_options.hpp>
#include <iostream>

#include "indexer/check.h"

namespace po = boost::program_options;

int main(int argc, char** argv) {
  po::options_description visible(
      "Usage: 5d-index --check [--hashes | --fen] FILE...\n"
      "Reads 5dpgn files ('-' for standard input), replays and validates every game.\n"
      "Example: 5d-index --check corpus/*.5dpgn\n\nOptions");
  visible.add_options()("help,h", "print this help")(
      "check", "replay and validate every game, print a summary (no database)")(
      "hashes",
      "with --check: print FILE<TAB>GAME<TAB>ACTION<TAB>MD5 for every state (action 0 is the "
      "start), FILE<TAB>GAME<TAB>error<TAB>message for a rejected game")(
      "fen", "with --check: print FILE<TAB>GAME<TAB>fen<TAB>[...][...] for every final state");
  po::options_description hidden;
  hidden.add_options()("input", po::value<std::vector<std::string>>(), "input files");
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("input", -1);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "5d-index: " << e.what() << "\n" << visible;
    return 2;
  }
  if (vm.count("help")) {
    std::cout << visible;
    return 0;
  }
  if (!vm.count("check")) {
    std::cerr << "5d-index: only --check is implemented so far\n" << visible;
    return 2;
  }
  if (vm.count("hashes") && vm.count("fen")) {
    std::cerr << "5d-index: --hashes and --fen exclude each other\n";
    return 2;
  }
  if (!vm.count("input")) {
    std::cerr << "5d-index: no input files (use - for standard input)\n";
    return 2;
  }
  fived::CheckOptions options;
  if (vm.count("hashes")) options.output = fived::CheckOptions::Output::kHashes;
  if (vm.count("fen")) options.output = fived::CheckOptions::Output::kFen;
  std::ios::sync_with_stdio(false);
  const fived::CheckSummary summary =
      fived::CheckFiles(vm["input"].as<std::vector<std::string>>(), options, std::cout, std::cerr);
  std::cout.flush();
  return summary.rejected > 0 || summary.unreadable_files > 0 ? 1 : 0;
}
