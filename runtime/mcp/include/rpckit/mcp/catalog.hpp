#pragma once
// rpckit::mcp::Catalog: what ToolSet, PromptSet and ResourceSet share. Items under a key (a
// tool's or prompt's name, a resource's URI), each with the function that serves it, in the
// order they were first added; a page of them from a cursor (pagination spec: the cursor is
// opaque, and one this catalog did not give is -32602); a report of every change, where a
// server sends its list_changed notification. Thread-safe: a handler is taken out under the
// lock and run without it, so it may change the catalog. Each set derives from it privately and
// passes on add, remove, contains, size, set_page_size and on_change as they are.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rpckit/mcp/cursor.hpp"

namespace rpckit::mcp {

// `Key` is the item's member it is found by (&Tool::name, &Resource::uri).
template <class Item, class H, std::string Item::*Key>
class Catalog {
 public:
  using Handler = H;
  // An item and what serves it, as one handed out (immutable: a replacement is a new entry).
  struct Entry {
    Item item;
    Handler handler;
  };

  // Adds the item, or replaces the one under its key (its place in the order kept). Whether
  // the key is new.
  bool add(Item item, Handler handler) {
    std::string key = item.*Key;
    bool added = false;
    {
      std::lock_guard lock(mutex_);
      auto entry = std::make_shared<const Entry>(Entry{std::move(item), std::move(handler)});
      auto it = entries_.find(key);
      if (it == entries_.end()) {
        entries_.emplace(std::move(key), Slot{next_order_++, std::move(entry)});
        added = true;
      } else {
        it->second.entry = std::move(entry);
      }
    }
    changed();
    return added;
  }

  // Removes the item under `key`; whether there was one.
  bool remove(std::string_view key) {
    {
      std::lock_guard lock(mutex_);
      auto it = entries_.find(key);
      if (it == entries_.end()) return false;
      entries_.erase(it);
    }
    changed();
    return true;
  }

  // The entry under `key`, or null.
  std::shared_ptr<const Entry> find(std::string_view key) const {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : it->second.entry;
  }
  bool contains(std::string_view key) const { return find(key) != nullptr; }
  // Every entry, in the list's order (as it was when called).
  std::vector<std::shared_ptr<const Entry>> entries() const {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<const Entry>> out;
    for (const Slot* slot : in_order(0)) out.push_back(slot->entry);
    return out;
  }
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return entries_.size();
  }

  // The items after `cursor` (none: from the first), at most page_size of them (0: all), and in
  // `next` the cursor of the page after when more follow. The cursor is the order of the last
  // item sent, so items removed meanwhile do not shift the pages.
  std::vector<Item> page(const std::optional<std::string>& cursor,
                         std::optional<std::string>& next) const {
    std::lock_guard lock(mutex_);
    const std::vector<const Slot*> listed = in_order(cursor_after(cursor, next_order_));
    const std::size_t count = page_size_ == 0 ? listed.size() : std::min(page_size_, listed.size());
    std::vector<Item> out;
    out.reserve(count);
    for (std::size_t i = 0; i < count; ++i) out.push_back(listed[i]->entry->item);
    next.reset();
    if (count < listed.size()) next = std::to_string(listed[count - 1]->order);
    return out;
  }

  void set_page_size(std::size_t page_size) {
    std::lock_guard lock(mutex_);
    page_size_ = page_size;
  }
  // Run after every put and erase, on the thread that made it, with no lock held.
  void on_change(std::function<void()> changed) {
    std::lock_guard lock(mutex_);
    on_change_ = std::move(changed);
  }

 private:
  struct Slot {
    std::uint64_t order;  // when its key was first added: the list order, what cursors name
    std::shared_ptr<const Entry> entry;
  };
  // The slots added after `after`, in order; the lock is held.
  std::vector<const Slot*> in_order(std::uint64_t after) const {
    std::vector<const Slot*> slots;
    for (const auto& [key, slot] : entries_) {
      if (slot.order > after) slots.push_back(&slot);
    }
    std::sort(slots.begin(), slots.end(),
              [](const Slot* a, const Slot* b) { return a->order < b->order; });
    return slots;
  }
  void changed() const {
    std::function<void()> observer;
    {
      std::lock_guard lock(mutex_);
      observer = on_change_;
    }
    if (observer) observer();
  }

  mutable std::mutex mutex_;
  std::map<std::string, Slot, std::less<>> entries_;
  std::uint64_t next_order_ = 1;
  std::size_t page_size_ = 0;
  std::function<void()> on_change_;
};

}  // namespace rpckit::mcp
