#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the disk that holds a worker's output capture file (see
/// ``OutputCapture``, made in the temporary folder) has room for what
/// steps print. On a full disk a step's `print` loses its text and
/// `FileHandle.write` traps: the step "crashed with SIGILL" and nothing
/// said the disk was full. The parent looks when a worker has gone, so a
/// crash there says why; the happy path pays nothing.
enum CaptureSpace {
    /// The name of the attachment that carries the note, shown with what
    /// the step printed, right under the crash's message.
    static let noteName = "storyrun"

    /// Less free space than this counts as full: a step prints more.
    static let fullBelow: UInt64 = 64 << 10

    /// A note saying the disk that holds the capture file is full, as an
    /// attachment; nil when it has room (or cannot be looked at).
    static func note(
        forCaptureFile descriptor: Int32, folder: String = Descriptors.temporaryFolder, fullBelow: UInt64 = fullBelow
    ) -> Attachment? {
        var status = statvfs()
        guard descriptor >= 0, fstatvfs(descriptor, &status) == 0 else { return nil }
        let free = UInt64(status.f_bavail) * UInt64(status.f_frsize)
        guard free < fullBelow else { return nil }
        let reason = String(cString: strerror(ENOSPC))
        let text = "the temporary folder \(folder) (TMPDIR), where storyrun keeps what steps print, is full (\(reason): "
            + "\(free) bytes free): what the step printed could not be written, and a write that fails can end the worker "
            + "(FileHandle.write traps); free some space on that disk, or set TMPDIR to a folder on a disk with room"
        return Attachment(body: text, encoding: .identity, mediaType: Attachment.logMediaType, name: noteName)
    }
}
