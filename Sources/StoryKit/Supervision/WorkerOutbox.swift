#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A worker's answers on their way to its parent.
///
/// A passing story's line goes first to the outbox in the page the worker
/// shares with its parent (``SharedPosition``), and many such lines go down
/// the messages pipe in one write: when the worker is about to wait for
/// stories, when the outbox is full, when the oldest line in it is a few
/// milliseconds old, and (from the lifeline thread) while a long story
/// runs. A worker that dies never takes its unwritten lines with it: the
/// parent reads them from the shared page. Every other message (a failed
/// story, a hook, the end) is rare: it goes at once, after what waits.
///
/// A step that closes or replaces the pipe (descriptor 4) loses what the
/// worker says from then on, as it always did: the outbox checks the pipe
/// is still the one the worker was given before each story's line and
/// before each write (its device and inode); once it is not, it keeps what it
/// holds (the parent reads it when it ends the worker) and takes nothing
/// more.
final class WorkerOutbox: @unchecked Sendable {
    // Unchecked: every mutable field is used only under `lock`.
    private let position: SharedPosition
    private let descriptor: Int32
    private let lock = Mutex(())
    /// The pipe's identity, to notice a step that replaced it.
    private let device: UInt64
    private let inode: UInt64
    private var unsent = 0
    /// When the oldest unwritten line was added (monotonic nanoseconds).
    private var oldest: UInt64 = 0
    private var isLost = false

    /// How long a line may wait in the outbox while stories keep running.
    static let maximumWait: UInt64 = 2_000_000

    init(position: SharedPosition, descriptor: Int32) {
        self.position = position
        self.descriptor = descriptor
        var info = stat()
        if fstat(descriptor, &info) == 0 {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        } else {
            device = 0
            inode = 0
        }
    }

    /// Whether a step closed or replaced the messages pipe: nothing this
    /// worker says reaches its parent any more.
    var isChannelLost: Bool {
        lock.withLock { _ in isLost }
    }

    /// Adds a passing story's line; written with the next batch.
    func add(_ line: [UInt8]) {
        line.withUnsafeBufferPointer { bytes in
            lock.withLock { _ in
                // At each story: a step that closed descriptor 4 and opened
                // a file there fails its own story, not one that runs after it.
                guard isChannelIntact() else { return }
                let capacity = position.outbox.count
                if unsent + bytes.count > capacity { flushLocked() }
                guard !isLost else { return }
                if bytes.count > capacity {
                    // Straight to the pipe: checked as every write is, so a
                    // file a step opened onto descriptor 4 never gets it.
                    guard isChannelIntact() else { return }
                    write(UnsafeRawBufferPointer(bytes))
                    return
                }
                let now = Self.now()
                if unsent == 0 { oldest = now }
                UnsafeMutableRawBufferPointer(rebasing: position.outbox[unsent...]).copyMemory(from: UnsafeRawBufferPointer(bytes))
                unsent += bytes.count
                position.setUnsent(unsent)
                if now &- oldest > Self.maximumWait { flushLocked() }
            }
        }
    }

    /// Writes what waits, then `line`, at once.
    func send(_ line: String) {
        var line = line
        line.withUTF8 { bytes in
            lock.withLock { _ in
                guard isChannelIntact() else { return }
                flushLocked()
                write(UnsafeRawBufferPointer(bytes))
            }
        }
    }

    /// Writes what waits, then the line `bytes`, at once.
    func send(bytes: [UInt8]) {
        bytes.withUnsafeBytes { bytes in
            lock.withLock { _ in
                guard isChannelIntact() else { return }
                flushLocked()
                write(bytes)
            }
        }
    }

    /// Writes what waits.
    func flush() {
        lock.withLock { _ in flushLocked() }
    }

    /// Writes what waits when it has waited longer than ``maximumWait``
    /// (the lifeline thread, while a long story runs).
    func flushIfStale() {
        lock.withLock { _ in
            if unsent > 0 && Self.now() &- oldest > Self.maximumWait { flushLocked() }
        }
    }

    private func flushLocked() {
        guard unsent > 0, isChannelIntact() else { return }
        write(UnsafeRawBufferPointer(rebasing: position.outbox[..<unsent]))
        unsent = 0
        position.setUnsent(0)
    }

    /// Whether the messages pipe is still the one the worker was given: its
    /// device and inode, one `fstat` (a pipe's inode is its own, so a
    /// descriptor closed, or replaced by `dup2` or an `open` that took its
    /// number, fails it); once it is not, the outbox is lost for good (and
    /// says so to the parent through the shared page).
    private func isChannelIntact() -> Bool {
        guard !isLost else { return false }
        var info = stat()
        if fstat(descriptor, &info) == 0 && UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode {
            return true
        }
        isLost = true
        position.noteChannelLost()
        return false
    }

    /// Writes bytes whole; a parent that is gone ends the worker and
    /// everything it started.
    private func write(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                _ = kill(0, SIGKILL)
                _exit(1)
            }
            offset += written
        }
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
