#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line's lines to standard output.
///
/// Each is written at once, unbuffered: when a step crashes an in-process
/// run, every line before it has been written. The parent of a supervised
/// run runs no user code, so while it runs the stories it gathers its lines
/// and writes them when it is about to wait for its workers: a few dozen
/// writes for 10,000 stories, not 10,000. (Not on a terminal, where a live
/// status line is drawn between them.)
enum StandardOutput {
    // Unsafe: used by the one thread that runs the command line.
    nonisolated(unsafe) private static var isGathering = false
    nonisolated(unsafe) private static var gathered: [UInt8] = []

    /// Runs `body` with lines gathered (unless standard output is a
    /// terminal), and writes what is left when it returns.
    static func gathering<Result>(_ body: () -> Result) -> Result {
        isGathering = isatty(STDOUT_FILENO) == 0
        defer {
            flush()
            isGathering = false
        }
        return body()
    }

    /// Writes the line and its end, or gathers them.
    static func writeLine(_ line: String) {
        if isGathering {
            gathered.append(contentsOf: line.utf8)
            gathered.append(UInt8(ascii: "\n"))
            if gathered.count >= 65_536 { flush() }
            return
        }
        var text = line
        var newline = UInt8(ascii: "\n")
        text.withUTF8 { bytes in
            withUnsafeMutablePointer(to: &newline) { newlinePointer in
                // The line and its end in one call, without joining them first.
                withUnsafeTemporaryAllocation(of: iovec.self, capacity: 2) { iovecs in
                    iovecs[0] = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
                    iovecs[1] = iovec(iov_base: UnsafeMutableRawPointer(newlinePointer), iov_len: 1)
                    let written = writev(STDOUT_FILENO, iovecs.baseAddress, 2)
                    if written == bytes.count + 1 { return }
                    // A closed pipe: the run goes on without it.
                    if written < 0 && errno != EAGAIN && errno != EINTR { return }
                    // A short write, or none yet (a full pipe, maybe one
                    // that does not block): the rest as it is taken.
                    let done = max(0, written)
                    if done < bytes.count { write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[done...])) }
                    write(UnsafeRawBufferPointer(start: newlinePointer, count: 1))
                }
            }
        }
    }

    /// Writes the gathered lines.
    static func flush() {
        guard !gathered.isEmpty else { return }
        gathered.withUnsafeBytes { write($0) }
        gathered.removeAll(keepingCapacity: true)
    }

    /// Writes all the bytes, waiting while a pipe that does not block is
    /// full (a slow reader loses nothing), as far as standard output takes
    /// them: a closed pipe takes none, and the run goes on.
    private static func write(_ bytes: UnsafeRawBufferPointer) {
        _ = ReportFile.writeAll(STDOUT_FILENO, bytes)
    }
}
