#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What user code prints, caught per test step.
///
/// A worker's standard output and standard error are files its parent made
/// (opened for appending, already unlinked), not pipes: a step's background
/// process that keeps them open cannot hang anyone, and the parent can read
/// what a step printed even when the worker dies in it. Before each test
/// step the worker notes how long the files are; after it, what was added
/// becomes the step's attachment.
struct OutputCapture {
    /// The files: standard output, standard error.
    let output: Int32
    let errors: Int32
    private var outputStart: UInt64 = 0
    private var errorStart: UInt64 = 0

    /// The most bytes of one stream kept per test step.
    static let limit = 64 * 1024
    /// Past this length between stories, the files are emptied.
    static let resetLength: UInt64 = 1 << 20

    init(output: Int32, errors: Int32) {
        self.output = output
        self.errors = errors
    }

    /// The current lengths of both files, after flushing buffered output.
    func lengths() -> (output: UInt64, errors: UInt64) {
        fflush(nil)
        return (Self.length(of: output), Self.length(of: errors))
    }

    /// Starts catching a test step's output.
    mutating func begin() -> (output: UInt64, errors: UInt64) {
        let lengths = lengths()
        outputStart = lengths.output
        errorStart = lengths.errors
        return lengths
    }

    /// What the test step printed since ``begin()``, as attachments.
    func end() -> [Attachment] {
        fflush(nil)
        var attachments: [Attachment] = []
        if let text = Self.read(output, from: outputStart) {
            attachments.append(Attachment(body: text, encoding: .identity, mediaType: Attachment.logMediaType, name: "stdout"))
        }
        if let text = Self.read(errors, from: errorStart) {
            attachments.append(Attachment(body: text, encoding: .identity, mediaType: Attachment.logMediaType, name: "stderr"))
        }
        return attachments
    }

    /// Empties the files when they have grown long (between stories).
    mutating func trim() {
        if Self.length(of: output) > Self.resetLength { _ = ftruncate(output, 0) }
        if Self.length(of: errors) > Self.resetLength { _ = ftruncate(errors, 0) }
    }

    static func length(of descriptor: Int32) -> UInt64 {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return 0 }
        return UInt64(max(0, info.st_size))
    }

    /// The text added to a file since `offset`, at most ``limit`` bytes of
    /// it (the end kept, with a note of what was left out); nil when
    /// nothing was added.
    static func read(_ descriptor: Int32, from offset: UInt64) -> String? {
        let end = length(of: descriptor)
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
