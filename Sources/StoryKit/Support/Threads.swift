#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts threads, and says when one cannot start (a process limit, `ulimit
/// -u`), which Foundation's `Thread` keeps to itself: a thread that never
/// ran must not leave the run waiting for it.
enum Threads {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts `body` on a new, detached thread; false when it cannot start.
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            body.run()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// Whether `count` more threads can run at once: a run needs a few (two
    /// read stories ahead; Swift's concurrency runtime needs its own), and
    /// without them it would wait for ever for a thread that never comes.
    static func canStart(_ count: Int) -> Bool {
        let gate = DispatchSemaphoreLike()
        var started = 0
        for _ in 0..<count {
            guard start({ gate.wait() }) else { break }
            started += 1
        }
        for _ in 0..<started { gate.signal() }
        return started == count
    }

    /// The diagnostic for a thread that could not start.
    static func cannotStart(_ purpose: String) -> Diagnostic {
        Diagnostic(
            at: nil, problem: "cannot start a thread to \(purpose): \(String(cString: strerror(EAGAIN)))",
            help: "the process or thread limit is reached (ulimit -u); raise it or end other processes")
    }
}

/// A counting semaphore on a pthread mutex and condition (no Dispatch, so
/// it needs no thread of Dispatch's own).
private final class DispatchSemaphoreLike: @unchecked Sendable {
    // Unchecked: `count` is read and written only under `mutex`.
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var count = 0

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    func wait() {
        pthread_mutex_lock(&mutex)
        while count == 0 { pthread_cond_wait(&condition, &mutex) }
        count -= 1
        pthread_mutex_unlock(&mutex)
    }

    func signal() {
        pthread_mutex_lock(&mutex)
        count += 1
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
    }
}
