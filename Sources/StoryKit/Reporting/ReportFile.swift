import Foundation

/// A report file being written: opened, written in chunks, then committed or
/// aborted, so a report can stream to disk as events arrive.
///
/// What happens to the path depends on what it is:
/// - a regular file, or nothing yet: the text goes to a temporary file
///   beside it, which ``commit()`` flushes to disk (`fsync`) and renames over
///   the path; a killed run never leaves half a report. The file has no name
///   while it is written (Linux's `O_TMPFILE`): a run killed then (SIGKILL,
///   a second Ctrl-C) leaves nothing behind; it is linked under an
///   unpredictable name only when it is whole, for the rename. Where the
///   disk has no such files, it is created under that name at once with
///   exclusive creation (`O_CREAT|O_EXCL|O_NOFOLLOW`). A symlink planted
///   where the temporary goes is never followed (a run removed the earlier
///   report there when it started: ``EarlierReport``);
/// - a symlink: it is followed to its final target and that target is
///   written as above, so the link stays a link.
///
/// The path is resolved once, when the run starts (``ReportTarget``):
/// the temporary file is created in the folder opened then and renamed
/// within it, so neither a symlink planted at the path nor a folder
/// swapped for a symlink during the run redirects the report; and:
/// - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`: the text goes to that file
///   descriptor of this process, where it already points;
/// - anything else that exists (a device such as `/dev/null`, a FIFO): it
///   is opened for writing as it is (never created, truncated or renamed
///   over) and written directly.
///
/// On any failure the temporary file is removed, and the error names the
/// path, the reason and what to do.
///
/// ```swift
/// let file = try ReportFile(path: "report.xml")
/// try file.write("<testsuites>\n")
/// try file.write("</testsuites>\n")
/// try file.commit()
/// ```
final class ReportFile {
    /// The path as the user gave it.
    let path: String
    private var descriptor: Int32
    /// Where the text goes, and what commit does with it.
    private let target: ReportTarget
    private var isOpen = true
    /// Written and closed under its temporary name, waiting for ``publish()``.
    private var isPrepared = false

    /// Opens the report file at a path for writing.
    /// - Parameter earlierMode: The permission bits of the report the run
    ///   removed from the path when it started (``EarlierReport``), which a
    ///   new report there keeps; a file still at the path gives its own.
    /// - Parameter target: The path as the run resolved it when it started
    ///   (``ReportTarget/resolve(_:)``), or the failure it met then; nil
    ///   to resolve it now.
    /// - Throws: A ``Diagnostic`` naming the path, the reason and what to do.
    init(path: String, earlierMode: mode_t? = nil, target: Result<ReportTarget, Diagnostic>? = nil) throws(Diagnostic) {
        self.path = path
        if let target {
            self.target = try target.get()
        } else {
            self.target = try ReportTarget(path: path)
        }
        switch self.target.kind {
        case .descriptor(let number):
            descriptor = dup(number)
            guard descriptor >= 0 else { throw Self.failure(path, errno, doing: "cannot use the output \(path)") }
        case .direct:
            descriptor = try Self.openDirect(path)
        case .replacing(let folder, let name):
            let (descriptor, temporary) = try Self.createTemporary(
                in: folder, for: name, reportPath: path, folderPath: self.target.folderPath, earlierMode: earlierMode)
            self.descriptor = descriptor
            self.temporary = temporary
        }
    }

    /// The temporary file's name in the target's folder, which
    /// ``commit()`` renames over the target; nil
    /// while a file with no name yet is written (`O_TMPFILE`).
    private var temporary: String?

    /// Writes text at the end of the report.
    /// - Throws: A ``Diagnostic`` (the report is then aborted).
    func write(_ text: String) throws(Diagnostic) {
        var text = text
        let result: Int32? = text.withUTF8 { bytes in
            bytes.isEmpty ? nil : writeAll(UnsafeRawBufferPointer(bytes))
        }
        if let result {
            abort()
            throw Self.failure(path, result)
        }
    }

    /// Writes bytes at the end of the report.
    /// - Throws: A ``Diagnostic`` (the report is then aborted).
    func write(_ bytes: UnsafeRawBufferPointer) throws(Diagnostic) {
        guard !bytes.isEmpty else { return }
        if let result = writeAll(bytes) {
            abort()
            throw Self.failure(path, result)
        }
    }

    /// Writes bytes at the end of the report.
    /// - Throws: A ``Diagnostic`` (the report is then aborted).
    func write(_ bytes: [UInt8]) throws(Diagnostic) {
        guard !bytes.isEmpty else { return }
        if let result = bytes.withUnsafeBytes({ writeAll($0) }) {
            abort()
            throw Self.failure(path, result)
        }
    }

    /// Copies bytes of another file to the end of the report inside the
    /// kernel (`copy_file_range`), without reading them into memory.
    /// - Returns: False, with nothing written, when the kernel cannot copy
    ///   between these files (the report is a device, a pipe…): the caller
    ///   then writes the bytes itself.
    /// - Throws: A ``Diagnostic`` (the report is then aborted).
    func copy(from source: Int32, offset: Int, count: Int) throws(Diagnostic) -> Bool {
        guard isOpen else { throw Self.failure(path, EBADF) }
        guard let copyFileRange = Self.copyFileRange else { return false }
        var from = off_t(offset)
        var copied = 0
        while copied < count {
            let result = copyFileRange(source, &from, descriptor, nil, count - copied, 0)
            if result < 0 {
                let code = errno
                if code == EINTR { continue }
                if copied == 0, [EXDEV, EINVAL, ENOSYS, EOPNOTSUPP, EBADF, EPERM].contains(code) { return false }
                abort()
                throw Self.failure(path, code)
            }
            if result == 0 {
                abort()
                throw Self.failure(path, EIO)
            }
            copied += result
        }
        startWriteback(after: count)
        return true
    }

    /// Bytes written so far, and where the disk was last told to start
    /// writing them.
    private var written = 0
    private var writebackStart = 0
    /// How many bytes are written before the disk is told to start on them.
    private static let writebackSize = 8 << 20

    /// Tells the kernel to start writing what was written since the last
    /// call to disk (`sync_file_range`, which does not wait), every
    /// ``writebackSize`` bytes: ``prepare()``'s `fsync` then waits for the
    /// last few megabytes only, not for the whole report (a Messages
    /// report of 10,000 stories is 50 MB), and the disk works while the
    /// rest is made. Only for a temporary file that is renamed into place.
    private func startWriteback(after count: Int) {
        written += count
        guard written - writebackStart >= Self.writebackSize, case .replacing = target.kind, let syncFileRange = Self.syncFileRange else { return }
        // SYNC_FILE_RANGE_WRITE: start writing the dirty pages, do not wait.
        _ = syncFileRange(descriptor, off_t(writebackStart), off_t(written - writebackStart), 2)
        writebackStart = written
    }

    /// glibc's `sync_file_range`, which the Glibc module does not export.
    private static let syncFileRange: (@convention(c) (Int32, off_t, off_t, UInt32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, off_t, off_t, UInt32) -> Int32).self)
    }()

    /// glibc's `copy_file_range`, which the Glibc module does not export.
    private static let copyFileRange:
        (@convention(c) (Int32, UnsafeMutablePointer<off_t>?, Int32, UnsafeMutablePointer<off_t>?, Int, UInt32) -> Int)? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "copy_file_range") else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (Int32, UnsafeMutablePointer<off_t>?, Int32, UnsafeMutablePointer<off_t>?, Int, UInt32) -> Int).self)
        }()

    /// Writes all the bytes; returns the errno of a failure, or nil.
    private func writeAll(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard isOpen else { return EBADF }
        if let failure = Self.writeAll(descriptor, bytes) { return failure }
        startWriteback(after: bytes.count)
        return nil
    }

    /// Writes all the bytes to a descriptor, through interrupted and short
    /// writes (one that would block waits until it can take more); returns
    /// the errno of a failure, or nil.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { _ = Self.waitWritable(descriptor); continue }
                return errno
            }
            if written == 0 { return EIO }
            offset += written
        }
        return nil
    }

    /// Finishes the report: flushes it to disk and renames the temporary
    /// file over the target (or just closes a file written directly).
    /// - Throws: A ``Diagnostic``; the temporary file is then removed.
    func commit() throws(Diagnostic) {
        try prepare()
        try publish()
    }

    /// The first half of ``commit()``: the report is whole on disk under
    /// its temporary name (or, written directly, closed).
    func prepare() throws(Diagnostic) {
        guard isOpen else { throw Self.failure(path, EBADF) }
        isOpen = false
        guard case .replacing(let folder, let name) = target.kind else {
            // A device or FIFO: no rename; a close error still means lost text.
            if close(descriptor) != 0 && errno != EINTR && errno != EINVAL { throw Self.failure(path, errno) }
            return
        }
        // fsync first: a rename that outlives a crash must not point at
        // blocks that never reached the disk.
        if fsync(descriptor) != 0 && errno != EINVAL && errno != EROFS {
            let code = errno
            close(descriptor)
            if let temporary { unlinkat(folder, temporary, 0) }
            throw Self.failure(path, code, folder: target.folderPath)
        }
        let temporary: String
        if let named = self.temporary {
            temporary = named
        } else {
            do {
                temporary = try Self.link(descriptor, in: folder, for: name, reportPath: path, folderPath: target.folderPath)
            } catch {
                close(descriptor)
                throw error
            }
            self.temporary = temporary
        }
        if close(descriptor) != 0 && errno != EINTR {
            let code = errno
            unlinkat(folder, temporary, 0)
            throw Self.failure(path, code, folder: target.folderPath)
        }
        isPrepared = true
    }

    /// The second half of ``commit()``: renames the prepared temporary file
    /// over the target.
    func publish() throws(Diagnostic) {
        if let folder = try rename() { _ = fsync(folder.descriptor) }
    }

    /// ``publish()`` without the folder's sync: renames the prepared
    /// temporary file over the target and returns the target's folder,
    /// for the caller to sync (nil when nothing was renamed). A batch
    /// renames all its reports, then syncs each folder once: a sync of a
    /// folder costs milliseconds, and the reports of a run share one. The
    /// folder's descriptor stays open as long as this report.
    func rename() throws(Diagnostic) -> (path: String, descriptor: Int32)? {
        guard isPrepared, let temporary, case .replacing(let folder, let name) = target.kind else { return nil }
        isPrepared = false
        guard renameat(folder, temporary, folder, name) == 0 else {
            let code = errno
            unlinkat(folder, temporary, 0)
            throw Self.failure(path, code, folder: target.folderPath)
        }
        return (target.folderPath, folder)
    }

    /// Makes the renames in a folder reach the disk with it (best effort).
    static func syncFolder(_ path: String) {
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    /// Gives the report up: removes the temporary file (the target keeps
    /// what it had), or closes a file written directly.
    func abort() {
        if isPrepared, let temporary, case .replacing(let folder, _) = target.kind {
            isPrepared = false
            unlinkat(folder, temporary, 0)
        }
        guard isOpen else { return }
        isOpen = false
        close(descriptor)
        if let temporary, case .replacing(let folder, _) = target.kind { unlinkat(folder, temporary, 0) }
    }

    deinit {
        abort()
    }
}

extension ReportFile {
    /// Opens an existing file that is not regular (a device, a FIFO) for
    /// writing as it is: no `O_CREAT`, no `O_TRUNC`; `O_NONBLOCK` so a FIFO
    /// nobody reads fails at once instead of hanging the run.
    fileprivate static func openDirect(_ path: String) throws(Diagnostic) -> Int32 {
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw failure(path, errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw failure(path, code)
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw failure(path, EISDIR)
        }
        // Blocking again: a FIFO with a reader gets all the text.
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return descriptor
    }

    /// Creates a temporary file beside the target, in its open folder:
    /// one with no name (`O_TMPFILE`, the name nil) where the disk has
    /// them, else `mkstemp`-style, an unpredictable name,
    /// `O_CREAT|O_EXCL|O_NOFOLLOW`; mode 0644 less the umask for a new
    /// report, the target's own mode when it is a regular file, else
    /// `earlierMode` (the mode of the report removed when the run started).
    fileprivate static func createTemporary(
        in folder: Int32, for name: String, reportPath: String, folderPath: String, earlierMode: mode_t?
    ) throws(Diagnostic) -> (Int32, String?) {
        var existing = stat()
        let isRegular = fstatat(folder, name, &existing, AT_SYMLINK_NOFOLLOW) == 0 && existing.st_mode & S_IFMT == S_IFREG
        let keptMode = isRegular ? existing.st_mode & 0o7777 : earlierMode
        #if os(Linux)
        // Linked by its /proc/self/fd name when whole: only where /proc is.
        if access("/proc/self/fd", X_OK) == 0 {
            let descriptor = openat(folder, ".", anonymousFile | O_WRONLY | O_CLOEXEC, mode_t(0o644))
            if descriptor >= 0 {
                if let keptMode { _ = fchmod(descriptor, keptMode) }
                return (descriptor, nil)
            }
        }
        #endif
        var lastError = EEXIST
        for _ in 0..<100 {
            let temporary = temporaryName(for: name)
            let descriptor = openat(
                folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o644))
            if descriptor >= 0 {
                if let keptMode { _ = fchmod(descriptor, keptMode) }
                return (descriptor, temporary)
            }
            lastError = errno
            guard lastError == EEXIST || lastError == EINTR else { break }
        }
        throw failure(reportPath, lastError, folder: folderPath)
    }

    /// `O_TMPFILE` (with the `O_DIRECTORY` bit it includes), which Glibc's
    /// module does not export.
    private static let anonymousFile: Int32 = 0o20_000_000 | O_DIRECTORY

    /// A temporary name beside the target: `.NAME.tmp-` and twelve random
    /// letters and digits.
    private static func temporaryName(for name: String) -> String {
        "." + name + ".tmp-" + randomSuffix()
    }

    /// Gives a file made with no name (`O_TMPFILE`) a temporary name beside
    /// the target, for the rename; linked only when it is whole, so a run
    /// killed while it wrote leaves nothing behind.
    fileprivate static func link(
        _ descriptor: Int32, in folder: Int32, for name: String, reportPath: String, folderPath: String
    ) throws(Diagnostic) -> String {
        var lastError = EEXIST
        for _ in 0..<100 {
            let temporary = temporaryName(for: name)
            if linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", folder, temporary, AT_SYMLINK_FOLLOW) == 0 { return temporary }
            lastError = errno
            guard lastError == EEXIST || lastError == EINTR else { break }
        }
        throw failure(reportPath, lastError, folder: folderPath)
    }

    /// Twelve random letters and digits (about 62 bits).
    private static func randomSuffix() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<12).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    /// Drops the pages of the file a report will replace from the page
    /// cache (`POSIX_FADV_DONTNEED`; its bytes stay as they are), so that
    /// the rename that replaces it at the end of the run has no pages to
    /// free. Only for a regular file written by replacing it; does
    /// nothing when there is none.
    static func dropCachedPages(ofReportAt path: String) {
        guard case .replacing(let target)? = try? ReportDestination(path: path) else { return }
        let descriptor = open(target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return }
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
    }

    /// Waits until a descriptor can take more bytes (a full pipe).
    fileprivate static func waitWritable(_ descriptor: Int32) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        return poll(&poller, 1, 1000) >= 0
    }

    /// The diagnostic for a report that cannot be written: the path, the
    /// reason and what to do.
    static func failure(_ path: String, _ code: Int32, doing problem: String? = nil, folder: String? = nil)
        -> Diagnostic
    {
        let reason = String(cString: strerror(code))
        let folder = folder ?? ReportDestination.folder(of: path)
        let help: String =
            switch code {
            case ENOSPC, EDQUOT: "free some space on the disk that holds \(folder), or write the report elsewhere"
            case EACCES, EPERM: "check that \(folder) is writable by this user, or write the report elsewhere"
            case EROFS: "\(folder) is on a read-only file system: write the report elsewhere"
            case ENOENT: "create the folder \(folder) first, or write the report elsewhere"
            case EISDIR: "name a file, not a folder"
            case ENXIO: "start the program that reads \(path) first, or write the report to a file"
            case ELOOP: "the path is a loop of symbolic links: fix the links or write the report elsewhere"
            case EIO: "the disk failed to write: check it, or write the report elsewhere"
            default: "check the path and the disk, or write the report elsewhere"
            }
        return Diagnostic(at: nil, problem: (problem ?? "cannot write the report \(path)") + ": \(reason)", help: help)
    }
}
