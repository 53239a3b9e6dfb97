// liedyn — parallel: a fixed pool of persistent worker threads, standard library only.
//
// The pool knows nothing of robots (it sits beside arithmetic/, below model/ and algorithm/), so
// that any layer can spread work over it; the batch layer (algorithm/batch.hpp) is its user.
// ThreadPool::run hands one task to every worker and returns when all have finished: the task
// is passed by pointer and called through a plain function pointer, so that a run allocates
// nothing (std::function would, for a capture larger than its small buffer). The calling thread
// is worker 0, so a pool of T threads starts T − 1, and a pool of one runs the task inline.
// Workers sleep on a condition variable between runs: a run costs a wake-up of each worker,
// and an idle pool no CPU time.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "liedyn/config.hpp"

namespace liedyn {

/// A fixed set of threads that run one task at a time, each on every worker (worker 0 is the
/// calling thread). Built once and reused across runs; a run allocates nothing. One run at a
/// time: concurrent run() calls from several threads are serialized.
class ThreadPool {
 public:
  /// A pool of `threads` workers (≥ 1): starts threads − 1 threads; the caller of run() is the
  /// first worker.
  explicit ThreadPool(int threads) : size_(threads) {
    LIEDYN_CHECK(threads >= 1,
                 "ThreadPool: threads is " + std::to_string(threads) + ", expected at least 1");
    threads_.reserve(static_cast<std::size_t>(threads - 1));
    for (int w = 1; w < threads; ++w) threads_.emplace_back([this, w] { work(w); });
  }
  /// Stops and joins the workers (after the run in progress, if any).
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    start_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// The number of workers, the calling thread included.
  int size() const { return size_; }

  /// Calls task(w) once for every worker w ∈ [0, size()), concurrently, worker 0 on the calling
  /// thread; returns when every call has returned. If calls throw, the first exception caught
  /// is rethrown here after all have finished (the batch layer's tasks catch their own).
  template <class Task>
  void run(Task& task) {
    std::lock_guard<std::mutex> one_run_at_a_time(run_mutex_);
    error_ = nullptr;
    if (size_ > 1) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        call_ = &call<Task>;
        task_ = &task;
        running_ = size_ - 1;
        ++generation_;
      }
      start_.notify_all();
    }
    call<Task>(&task, 0, *this);
    if (size_ > 1) {
      std::unique_lock<std::mutex> lock(mutex_);
      done_.wait(lock, [this] { return running_ == 0; });
    }
    if (error_) std::rethrow_exception(error_);
  }

 private:
  template <class Task>
  static void call(void* task, int worker, ThreadPool& pool) {
    try {
      (*static_cast<Task*>(task))(worker);
    } catch (...) {
      std::lock_guard<std::mutex> lock(pool.error_mutex_);
      if (!pool.error_) pool.error_ = std::current_exception();
    }
  }

  void work(int worker) {
    std::uint64_t seen = 0;
    for (;;) {
      void (*call)(void*, int, ThreadPool&) = nullptr;
      void* task = nullptr;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        start_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        call = call_;
        task = task_;
      }
      call(task, worker, *this);
      bool last = false;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        last = --running_ == 0;
      }
      if (last) done_.notify_one();
    }
  }

  int size_;
  std::vector<std::thread> threads_;
  std::mutex run_mutex_;  // held for a whole run
  std::mutex mutex_;      // guards what follows, up to error_
  std::condition_variable start_, done_;
  std::uint64_t generation_ = 0;
  int running_ = 0;
  bool stop_ = false;
  void (*call_)(void*, int, ThreadPool&) = nullptr;
  void* task_ = nullptr;
  std::mutex error_mutex_;
  std::exception_ptr error_;
};

}  // namespace liedyn
