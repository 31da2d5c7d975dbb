#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What user code prints, caught per test step.
///
/// A worker's standard output and standard error are one file its parent
/// made (opened for appending, already unlinked), not a pipe: a step's
/// background process that keeps it open cannot hang anyone, both streams
/// keep their order, and the parent can read what a step printed even when
/// the worker dies in it. After each test step the worker looks at how long
/// the file has grown (one `lseek` to its end: cheaper than `fstat`, and the
/// same length; the file is written only by appending, so where its
/// position stands matters to no writer); what was added is the step's
/// attachment.
struct OutputCapture {
    /// The file.
    let file: Int32
    /// Its length when the last test step ended.
    private var length: UInt64

    /// The most bytes kept per test step.
    static let limit = 64 * 1024
    /// Past this length between stories, the file is emptied.
    static let resetLength: UInt64 = 1 << 20

    init(file: Int32) {
        self.file = file
        length = Self.length(of: file)
    }

    /// Where the next test step's output begins (what was printed between
    /// test steps goes with the next one).
    var start: UInt64 { length }

    /// What the test step printed, as an attachment, if it printed anything.
    mutating func end() -> [Attachment] {
        fflush(nil)
        let end = Self.length(of: file)
        guard end > length else {
            length = end
            return []
        }
        defer { length = end }
        return Self.read(file, from: length, to: end).map {
            [Attachment(body: $0, encoding: .identity, mediaType: Attachment.logMediaType, name: "output")]
        } ?? []
    }

    /// Empties the file when it has grown long (between stories).
    mutating func trim() {
        guard length > Self.resetLength else { return }
        _ = ftruncate(file, 0)
        length = 0
    }

    static func length(of descriptor: Int32) -> UInt64 {
        UInt64(max(0, lseek(descriptor, 0, SEEK_END)))
    }

    /// The text added to a file between two offsets (to its end when `end`
    /// is nil), at most ``limit`` bytes of it (the end kept, with a note of
    /// what was left out); nil when nothing was added.
    static func read(_ descriptor: Int32, from offset: UInt64, to end: UInt64? = nil) -> String? {
        let end = end ?? length(of: descriptor)
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
