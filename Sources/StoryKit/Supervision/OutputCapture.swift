#if canImport(Glibc)
// `stdout` and `stderr` are C globals Swift 6 counts as shared mutable
// state; they never change once the process runs.
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What user code prints, caught per test step.
///
/// A worker's standard output and standard error are one file its parent
/// made (already unlinked), not a pipe: a step's background process that
/// keeps it open cannot hang anyone, both streams keep their order, and the
/// parent can read what a step printed even when the worker dies in it.
///
/// The file starts ``mappedSize`` bytes long and all zeros (a hole, no
/// storage), and is written from its start at the position its writers
/// share (the worker, and every process its steps start, hold the same
/// open file). The worker maps it, so after each test step it sees whether
/// anything was printed with no system call: the bytes where the output so
/// far ends are no longer all zero (it looks at ``glance`` of them). Only
/// then does it ask where the output ends (`lseek`), and read what was
/// added: the step's attachment. Output that begins with more zero bytes
/// than that is found at the end of the story, where one `lseek` per story
/// checks the position: it goes with the story's last step that ran, with
/// a note. The parent reads up to the same shared position.
///
/// User code may truncate the file (`> /dev/stdout` in a shell, say), and
/// reading a mapped page past a file's end raises SIGBUS: the worker takes
/// that one signal, maps zeros in place of the file and asks the position
/// after every test step from then on, so a truncation never crashes it.
struct OutputCapture {
    /// The file.
    let file: Int32
    /// Where the output so far ends (the shared position when last asked).
    private var length: UInt64
    /// The file's first ``mappedSize`` bytes, read-only; nil where the file
    /// cannot be mapped (then every test step asks the position).
    private let mapped: UnsafePointer<UInt8>?

    /// The most bytes kept per test step.
    static let limit = 64 * 1024
    /// Past this length between stories, the file is emptied.
    static let resetLength: UInt64 = 1 << 20
    /// How much of the file is mapped: output past it (a story that prints
    /// more than a megabyte) is looked for with `lseek` after every step.
    static let mappedSize = 2 << 20
    /// How many bytes past the output's end a test step's check looks at.
    static let glance = 64

    init(file: Int32) {
        self.file = file
        length = Self.position(of: file)
        let memory = mmap(nil, Self.mappedSize, PROT_READ, MAP_SHARED, file, 0)
        guard let memory, memory != MAP_FAILED else {
            mapped = nil
            return
        }
        // A page at a time: the first glance at the file would otherwise
        // read ahead (and zero) dozens of pages of a file on disk, about
        // 0.6 ms of a worker's first story.
        _ = madvise(memory, Self.mappedSize, MADV_RANDOM)
        mapped = UnsafePointer(memory.assumingMemoryBound(to: UInt8.self))
        Truncation.watch(memory, size: Self.mappedSize)
    }

    /// Makes a capture file of the size a worker maps, in the temporary
    /// folder, unlinked, closed on exec.
    static func makeFile() -> Int32? {
        guard let descriptor = Descriptors.temporaryFile("output", appending: false) else { return nil }
        guard ftruncate(descriptor, off_t(mappedSize)) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Where the next test step's output begins (what was printed between
    /// test steps goes with the next one).
    var start: UInt64 { length }

    /// What the test step printed, as an attachment, if it printed anything.
    mutating func end() -> [Attachment] {
        // What standard output or error holds in its buffer goes out now, to
        // be this step's; `fflush(nil)` (every stream, 46 ns) only when
        // they hold something, a look at two pointers otherwise. Another
        // stream a step opened on them is flushed at the story's end.
        if Self.hasBuffered(stdout) || Self.hasBuffered(stderr) { fflush(nil) }
        // Almost always: nothing printed, seen without a system call.
        if let mapped, !Truncation.happened, length + UInt64(Self.glance) <= UInt64(Self.mappedSize), Self.isZero(mapped + Int(length)) {
            return []
        }
        return added()
    }

    /// Whether a stdio stream holds bytes not yet written.
    private static func hasBuffered(_ stream: UnsafeMutablePointer<FILE>?) -> Bool {
        guard let stream else { return false }
        return stream.pointee._IO_write_ptr != stream.pointee._IO_write_base
    }

    /// Whether the ``glance`` bytes from `start` are all zero.
    private static func isZero(_ start: UnsafePointer<UInt8>) -> Bool {
        let raw = UnsafeRawPointer(start)
        var bits: UInt64 = 0
        for offset in stride(from: 0, to: glance, by: 8) { bits |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        return bits == 0
    }

    /// At the end of a story: output the test steps' checks missed (it
    /// began with more than ``glance`` zero bytes), with a note.
    mutating func endStory() -> [Attachment] {
        fflush(nil)
        return added().map {
            var attachment = $0
            attachment.body = "[storyrun: printed during this story, by this step or one before it; it began with zero bytes, "
                + "so it was found only at the story's end]\n" + attachment.body
            return attachment
        }
    }

    /// What was added since the output last ended, as an attachment.
    private mutating func added() -> [Attachment] {
        let end = Self.position(of: file)
        guard end > length else {
            length = end
            return []
        }
        defer { length = end }
        return Self.read(file, from: length, to: end).map {
            [Attachment(body: $0, encoding: .identity, mediaType: Attachment.logMediaType, name: "output")]
        } ?? []
    }

    /// Empties the file when it has grown long (between stories): its
    /// writers start again from its start, over zeros.
    mutating func trim() {
        guard length > Self.resetLength else { return }
        _ = ftruncate(file, 0)
        _ = ftruncate(file, off_t(Self.mappedSize))
        _ = lseek(file, 0, SEEK_SET)
        length = 0
    }

    /// Where the writers of a capture file stand: the end of its output.
    static func position(of descriptor: Int32) -> UInt64 {
        UInt64(max(0, lseek(descriptor, 0, SEEK_CUR)))
    }

    /// The text added to a file between two offsets (to where its writers
    /// stand when `end` is nil), at most ``limit`` bytes of it (the end
    /// kept, with a note of what was left out); nil when nothing was added.
    static func read(_ descriptor: Int32, from offset: UInt64, to end: UInt64? = nil) -> String? {
        let end = end ?? position(of: descriptor)
        guard end > offset else { return nil }
        let total = Int(end - offset)
        let count = min(total, limit)
        var bytes = [UInt8](repeating: 0, count: count)
        let start = off_t(end) - off_t(count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, start) }
        guard read > 0 else { return nil }
        let text = String(decoding: bytes[..<read], as: UTF8.self)
        guard total > count else { return text }
        return "[storyrun: \(total - count) earlier bytes of this output left out; at most \(limit) are kept]\n" + text
    }
}

/// The SIGBUS a truncated capture file raises where the worker reads its
/// mapping: zeros are mapped in its place, and the capture asks the
/// position from then on. Any other SIGBUS (a step's bad access, a
/// `raise`) goes to the handler that was there, and ends the worker as
/// before.
private enum Truncation {
    nonisolated(unsafe) private static var start = 0
    nonisolated(unsafe) private static var size = 0
    /// On the heap, not a static `sigaction`: Swift 6.3.1 places the next
    /// static 148 bytes after one of that imported type, and `sigaction(2)`
    /// writes all 152 bytes of glibc's: the old action's restorer (any
    /// handler set with `signal(3)` has one) went over `happened`, and a
    /// worker took its capture file for truncated half the time.
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let pointer = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)
        pointer.initialize(to: sigaction())
        return pointer
    }()
    /// Whether the file was truncated under the mapping.
    nonisolated(unsafe) static var happened = false

    static func watch(_ memory: UnsafeMutableRawPointer, size: Int) {
        #if os(Linux)
        start = Int(bitPattern: memory)
        self.size = size
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { _, info, _ in Truncation.handle(info) }
        action.sa_flags = SA_SIGINFO
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, previous)
        #endif
    }

    private static func handle(_ info: UnsafeMutablePointer<siginfo_t>?) {
        #if os(Linux)
        // A fault the kernel raised (not a `kill` or `raise`) at the mapping.
        if let info, info.pointee.si_code > 0 {
            let address = Int(bitPattern: info.pointee._sifields._sigfault.si_addr)
            if address >= start && address < start + size,
                mmap(UnsafeMutableRawPointer(bitPattern: start), size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED
            {
                happened = true
                return
            }
        }
        // Not the capture's: the handler that was there takes it.
        sigaction(SIGBUS, previous, nil)
        raise(SIGBUS)
        #endif
    }
}
