import Foundation

/// The fragments of a report written as the run goes, so a report holds
/// only their places in memory, not the stories they came from.
///
/// A story's part of a report is rendered when the story finishes and
/// appended here; at the end the report is assembled in its own order by
/// copying fragments (``copy(_:to:)``). The bytes live in a temporary file
/// that is unlinked as soon as it is created (or made with `O_TMPFILE`), so
/// even a killed run leaves nothing behind. When no such file can be made
/// the fragments stay in memory: the report is still written.
///
/// ```swift
/// let spill = ReportSpill(near: "report.xml")
/// let place = spill.append("<testcase/>")
/// try spill.copy([place], to: file)
/// ```
final class ReportSpill {
    /// Where a fragment is: its first byte and its length.
    struct Place {
        var offset: Int
        var count: Int
    }

    /// The unlinked file, or -1 when the fragments stay in ``pending``.
    private var descriptor: Int32
    /// Appended bytes not yet written to the file.
    private var pending: [UInt8] = []
    /// Bytes written to the file so far.
    private var written = 0
    /// The first write error; later copies fail with it.
    private var failure: Int32?
    private static let flushSize = 1 << 20

    /// Creates a spill beside a report's path (same disk as the report),
    /// else in the temporary folder.
    init(near path: String) {
        var made: Int32?
        if case .replacing(let target)? = try? ReportDestination(path: path) {
            made = Descriptors.temporaryFile("spill", in: ReportDestination.folder(of: target))
        }
        descriptor = made ?? Descriptors.temporaryFile("spill") ?? -1
        pending.reserveCapacity(Self.flushSize + (64 << 10))
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The bytes appended so far.
    var count: Int { written + pending.count }

    /// Appends a fragment; returns where it is.
    @discardableResult
    func append(_ bytes: [UInt8]) -> Place {
        let place = Place(offset: count, count: bytes.count)
        pending.append(contentsOf: bytes)
        flushIfFull()
        return place
    }

    /// Appends a fragment that `write` appends to the spill's own bytes:
    /// no array of its own, and no copy of it. `write` must not append
    /// to this spill itself. Returns where the fragment is.
    @discardableResult
    func append(writing write: (inout [UInt8]) -> Void) -> Place {
        let start = count
        write(&pending)
        let place = Place(offset: start, count: count - start)
        flushIfFull()
        return place
    }

    /// Appends a fragment of text; returns where it is.
    @discardableResult
    func append(_ text: String) -> Place {
        let place = Place(offset: count, count: text.utf8.count)
        pending.append(contentsOf: text.utf8)
        flushIfFull()
        return place
    }

    private func flushIfFull() {
        if pending.count >= Self.flushSize { flush() }
    }

    private func flush() {
        guard descriptor >= 0, !pending.isEmpty, failure == nil else { return }
        let code: Int32? = pending.withUnsafeBytes { ReportFile.writeAll(descriptor, $0) }
        if let code {
            failure = code
            return
        }
        written += pending.count
        pending.removeAll(keepingCapacity: true)
    }

    /// Copies fragments, in the order given, to the end of a report file.
    /// A run of neighbouring fragments of ``kernelCopySize`` or more is
    /// copied by the kernel; smaller ones are gathered through memory and
    /// written a megabyte or so at a time: a kernel copy costs as much as
    /// several small writes, and a Messages report copies one small pickle
    /// after another (10,000 calls of 750 bytes for 10,000 stories).
    /// - Throws: A ``Diagnostic`` naming the report when the spill cannot be read.
    func copy(_ places: [Place], to file: ReportFile) throws(Diagnostic) {
        flush()
        guard descriptor >= 0, failure == nil, canCopyInKernel else {
            return try gather(places[...], to: file)
        }
        // Fragments from `gathered` on wait to be gathered.
        var gathered = 0
        var index = 0
        while index < places.count {
            // A run of neighbouring fragments on disk.
            let runStart = index
            let start = places[index].offset
            var end = start + places[index].count
            index += 1
            while index < places.count, places[index].offset == end {
                end += places[index].count
                index += 1
            }
            guard end - start >= Self.kernelCopySize, end <= written else { continue }
            try gather(places[gathered..<runStart], to: file)
            gathered = index
            guard try file.copy(from: descriptor, offset: start, count: end - start) else {
                canCopyInKernel = false
                return try gather(places[runStart...], to: file)
            }
        }
        try gather(places[gathered...], to: file)
    }

    /// The smallest run of fragments the kernel copies (see ``copy(_:to:)``).
    static let kernelCopySize = 64 << 10

    /// Writes fragments to the end of a report through memory, a
    /// megabyte or so at a time.
    private func gather(_ places: ArraySlice<Place>, to file: ReportFile) throws(Diagnostic) {
        guard !places.isEmpty else { return }
        var out: [UInt8] = []
        try read(Array(places), for: file.path) { bytes throws(Diagnostic) in
            if out.count + bytes.count > Self.flushSize, !out.isEmpty {
                try file.write(out)
                out.removeAll(keepingCapacity: true)
            }
            if bytes.count >= Self.flushSize {
                try file.write(bytes)
            } else {
                if out.isEmpty { out.reserveCapacity(Self.flushSize) }
                out.append(contentsOf: bytes)
            }
        }
        try file.write(out)
    }

    /// Whether the kernel copies from this spill to the reports (until it says it cannot).
    private var canCopyInKernel = true

    /// Hands the fragments, in the order given, to `body` in runs of
    /// neighbouring whole fragments (a megabyte or so each; a fragment is
    /// never split).
    ///
    /// Fragments that nearly follow one another on disk come in one read,
    /// the gaps between them (``gapSize`` at most) read through and left
    /// out: a read costs as much as copying a few kilobytes, and the
    /// fragments of a report often alternate with another's (a Messages
    /// report's pickles with its test cases).
    /// - Throws: A ``Diagnostic`` naming the report at `path` when the spill
    ///   cannot be read, or what `body` throws.
    func read(
        _ places: [Place], for path: String, _ body: (UnsafeRawBufferPointer) throws(Diagnostic) -> Void
    ) throws(Diagnostic) {
        flush()
        if let failure { throw ReportFile.failure(path, failure) }
        let largest = places.reduce(0) { max($0, $1.count) }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: max(Self.flushSize, largest), alignment: 1)
        defer { chunk.deallocate() }
        var index = 0
        while index < places.count {
            // The fragments that follow one another on disk, or nearly, in one read.
            let start = places[index].offset
            var end = start + places[index].count
            var last = index + 1
            while last < places.count, places[last].offset >= end, places[last].offset - end <= Self.gapSize,
                places[last].offset + places[last].count - start <= chunk.count
            {
                end = places[last].offset + places[last].count
                last += 1
            }
            try read(at: start, count: end - start, into: chunk, for: path)
            // Each run of neighbouring fragments in it, gaps left out.
            while index < last {
                let runStart = places[index].offset
                var runEnd = runStart + places[index].count
                index += 1
                while index < last, places[index].offset == runEnd {
                    runEnd += places[index].count
                    index += 1
                }
                try body(UnsafeRawBufferPointer(rebasing: chunk[(runStart - start)..<(runEnd - start)]))
            }
        }
    }

    /// The largest gap between two fragments that ``read(_:for:_:)``
    /// reads through rather than reading them apart.
    static let gapSize = 8 << 10

    private func read(at offset: Int, count: Int, into chunk: UnsafeMutableRawBufferPointer, for path: String) throws(Diagnostic) {
        if offset >= written {
            // Still in memory (or the spill never had a file).
            let from = offset - written
            pending.withUnsafeBytes { source in
                chunk.baseAddress!.copyMemory(from: source.baseAddress! + from, byteCount: count)
            }
            return
        }
        var done = 0
        while done < count {
            let got = pread(descriptor, chunk.baseAddress! + done, count - done, off_t(offset + done))
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw ReportFile.failure(path, got < 0 ? errno : EIO) }
            done += got
        }
    }
}
