import Foundation

/// Where a report path really leads, decided before anything is written.
enum ReportDestination: Equatable {
    /// One of this process's file descriptors (`/dev/stdout`, `/dev/fd/N`).
    case descriptor(Int32)
    /// An existing file that is not regular (a device, a FIFO): written as it is.
    case direct
    /// A regular file, or none yet, at the end of any symlinks: written
    /// through a temporary file renamed over this target.
    case replacing(target: String)

    /// How many symlinks a path may pass through, as the kernel allows.
    static let symlinkLimit = 40

    /// Decides where a report path leads.
    /// - Throws: A ``Diagnostic`` for a folder, a symlink loop or a path
    ///   that cannot be looked at.
    init(path: String) throws(Diagnostic) {
        if let number = Self.descriptorNumber(path) {
            self = .descriptor(number)
            return
        }
        var status = stat()
        if stat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw ReportFile.failure(path, EISDIR)
            default:
                self = .direct
                return
            }
        } else if errno != ENOENT {
            throw ReportFile.failure(path, errno)
        }
        self = .replacing(target: try Self.finalTarget(of: path))
    }

    /// The file descriptor a path names in this process, for `/dev/stdout`,
    /// `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N`; nil for the rest.
    ///
    /// Opening such a path anew would start at offset 0 of a file the
    /// output is redirected to, and renaming over it would replace a link
    /// the system owns; writing to the descriptor does neither.
    static func descriptorNumber(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                if let number = Int32(path.dropFirst(prefix.count)), number >= 0 { return number }
            }
            return nil
        }
    }

    /// Follows symlinks to the path a write must replace: the target of the
    /// last link (which may not exist yet), relative links read from the
    /// link's own folder.
    /// - Throws: A ``Diagnostic`` for a loop of links.
    static func finalTarget(of path: String) throws(Diagnostic) -> String {
        var current = path
        for _ in 0...symlinkLimit {
            var status = stat()
            guard lstat(current, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { throw ReportFile.failure(path, errno) }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : folder(of: current) + "/" + link
        }
        throw ReportFile.failure(path, ELOOP)
    }

    /// The folder a path is in (`.` for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// What makes two report paths the same file: the device and inode of an
    /// existing file, else the real path of its folder and its name; nil
    /// for a destination several reports may share (a device, a FIFO,
    /// standard output).
    static func identity(of path: String) -> String? {
        guard case .replacing(let target)? = try? ReportDestination(path: path) else { return nil }
        if let inode = FileIdentity.of(target) { return "inode " + inode }
        let name = (target as NSString).lastPathComponent
        let folder = folder(of: target)
        guard let real = realpath(folder, nil) else { return "path " + folder + "/" + name }
        defer { free(real) }
        return "path " + String(cString: real) + "/" + name
    }
}
