import Foundation

/// Reads input files (stories, rerun lists, reports to merge) only when
/// they are regular files: a FIFO, socket or device is refused with a
/// reason before it is opened, so it can never block a run.
enum RegularFile {
    /// Why a file was not read.
    enum Failure: Error, Equatable {
        /// Nothing is at the path (or it cannot be looked at); `code` is
        /// the `errno` that said so.
        case cannotOpen(reason: String, code: Int32 = 0)
        /// The path is something other than a regular file: a FIFO, a socket…
        case notRegular(kind: String)
        /// Reading failed half way.
        case cannotRead(reason: String, code: Int32 = 0)

        /// What went wrong, for a message that names the path.
        func problem(_ path: String) -> String {
            switch self {
            case .cannotOpen(let reason, _): "cannot read \(path): \(reason)"
            case .notRegular(let kind): "\(path) is \(kind), not a regular file; storyrun reads only regular files"
            case .cannotRead(let reason, _): "cannot read \(path): \(reason)"
            }
        }

        /// What to do about it.
        var help: String {
            switch self {
            case .cannotOpen: "check that the file exists and is readable"
            case .notRegular: "name a regular file (or a folder that holds them), or remove this one"
            case .cannotRead: "check the file and the disk"
            }
        }
    }

    /// A file's bytes, read with one `read(2)` per chunk: much faster than
    /// FileManager for the many small files of a suite.
    ///
    /// The path is looked at (`stat`) before it is opened, opened with
    /// `O_NONBLOCK` all the same, and checked again (`fstat`) once open, so
    /// a FIFO swapped in between is refused too.
    static func read(at path: String) -> Result<[UInt8], Failure> {
        var before = stat()
        guard stat(path, &before) == 0 else { return .failure(cannotOpen(errno)) }
        guard before.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular(kind: kind(before.st_mode))) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(cannotOpen(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(cannotOpen(errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular(kind: kind(status.st_mode))) }
        // Read into uninitialized room for the size and a byte more, so
        // that the end shows without a larger buffer (nor zeros written
        // first); a file that grew meanwhile gets room as it goes.
        var bytes: [UInt8] = []
        var capacity = Int(status.st_size) + 1
        var failure: Int32?
        while failure == nil {
            let full = bytes.count
            var ended = false
            let room = Array<UInt8>(unsafeUninitializedCapacity: capacity) { buffer, count in
                count = 0
                if full > 0 { bytes.withUnsafeBufferPointer { count = buffer.initialize(from: $0).1 } }
                while count < capacity {
                    let chunk = Glibc.read(descriptor, buffer.baseAddress! + count, capacity - count)
                    if chunk < 0 && errno == EINTR { continue }
                    if chunk < 0 { failure = errno }
                    if chunk <= 0 {
                        ended = true
                        return
                    }
                    count += chunk
                }
            }
            bytes = room
            if ended { break }
            capacity *= 2
        }
        if let failure { return .failure(.cannotRead(reason: reason(failure), code: failure)) }
        return .success(bytes)
    }

    /// What a file that is not regular is, in words.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a folder"
        case S_IFLNK: "a symbolic link"
        default: "not a file"
        }
    }

    private static func cannotOpen(_ code: Int32) -> Failure {
        .cannotOpen(reason: reason(code), code: code)
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
