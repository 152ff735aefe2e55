// StateStore: the live set kept in data_dir across restarts.
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "state_store.hpp"

namespace live_alerts {
namespace {

namespace fs = std::filesystem;

class StateStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() /
           ("rpckit-state-store-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(dir_, ec);
  }
  void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::trunc);
    out << text;
  }
  static std::string read(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  fs::path dir_;
};

TEST_F(StateStoreTest, NoFileIsAFirstRunWithoutError) {
  StateStore store(dir_);
  EXPECT_EQ(store.path(), dir_ / "state.json");
  std::string error;
  EXPECT_FALSE(store.load(&error));
  EXPECT_EQ(error, "");
  EXPECT_FALSE(store.load(nullptr));
}

TEST_F(StateStoreTest, RoundTripCreatesTheDataDir) {
  StateStore store(dir_ / "nested" / "data");
  std::string error;
  ASSERT_TRUE(store.save(SavedState{{"1", "22", "ü"}}, &error)) << error;
  auto loaded = store.load(&error);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(error, "");
  EXPECT_EQ(loaded->live_channel_ids, (std::vector<std::string>{"1", "22", "ü"}));
  nlohmann::json file = nlohmann::json::parse(read(store.path()));
  EXPECT_EQ(file, (nlohmann::json{{"version", 1}, {"live", {"1", "22", "ü"}}}));
}

TEST_F(StateStoreTest, AnEmptyLiveSetRoundTripsAndIsNotAFirstRun) {
  StateStore store(dir_);
  ASSERT_TRUE(store.save(SavedState{}, nullptr));
  auto loaded = store.load(nullptr);
  ASSERT_TRUE(loaded);  // "nothing was live" differs from "never ran"
  EXPECT_TRUE(loaded->live_channel_ids.empty());
}

TEST_F(StateStoreTest, SaveReplacesTheFileAtomicallyByRename) {
  StateStore store(dir_);
  ASSERT_TRUE(store.save(SavedState{{"old"}}, nullptr));
  // A second name for the old file: an in-place rewrite would change what it shows too.
  fs::path witness = dir_ / "witness.json";
  fs::create_hard_link(store.path(), witness);
  std::string before = read(witness);
  struct stat old_stat{};
  ASSERT_EQ(::stat(store.path().c_str(), &old_stat), 0);

  // A stale temporary from a crashed run is simply overwritten.
  write(fs::path(store.path()).concat(".tmp"), "garbage from a crash");
  ASSERT_TRUE(store.save(SavedState{{"new1", "new2"}}, nullptr));

  EXPECT_EQ(read(witness), before);  // the old inode is untouched
  struct stat new_stat{};
  ASSERT_EQ(::stat(store.path().c_str(), &new_stat), 0);
  EXPECT_NE(new_stat.st_ino, old_stat.st_ino);
  EXPECT_FALSE(fs::exists(fs::path(store.path()).concat(".tmp")));
  auto loaded = store.load(nullptr);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->live_channel_ids, (std::vector<std::string>{"new1", "new2"}));
}

TEST_F(StateStoreTest, CorruptFilesAreReportedAndTreatedAsFirstRun) {
  StateStore store(dir_);
  for (const char* text : {"", "{\"live\": [\"1\",", "not json", "[1, 2]", "{\"version\": 1}",
                           "{\"live\": \"1\"}", "null"}) {
    write(store.path(), text);
    std::string error;
    EXPECT_FALSE(store.load(&error)) << text;
    EXPECT_NE(error.find(store.path().string()), std::string::npos) << text;
    EXPECT_NE(error.find("not a valid state file"), std::string::npos) << error;
    EXPECT_FALSE(store.load(nullptr)) << text;  // no error out-parameter: still no crash
  }
}

TEST_F(StateStoreTest, NonStringIdsAreSkippedAndUnknownMembersIgnored) {
  StateStore store(dir_);
  write(store.path(), R"({"version": 2, "live": ["1", 2, null, "3"], "future": {}})");
  std::string error;
  auto loaded = store.load(&error);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(error, "");
  EXPECT_EQ(loaded->live_channel_ids, (std::vector<std::string>{"1", "3"}));
}

TEST_F(StateStoreTest, SaveReportsADataDirItCannotWrite) {
  write(dir_ / "file", "a regular file where the data dir should be");
  StateStore store(dir_ / "file");
  std::string error;
  EXPECT_FALSE(store.save(SavedState{{"1"}}, &error));
  EXPECT_NE(error, "");
  EXPECT_FALSE(store.save(SavedState{{"1"}}, nullptr));
}

}  // namespace
}  // namespace live_alerts
