#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reports an earlier run left at the paths this run writes, removed as
/// the run starts (as Cucumber truncates its report files at start):
/// - a run killed before it writes its own reports (SIGKILL, the OOM
///   killer, a power cut) leaves no earlier run's whole report at the path,
///   to be taken for its own: a report at the path is always this run's;
/// - freeing an old report's blocks (milliseconds for a 50 MB Messages
///   report on a disk mounted with `discard`) overlaps the run, instead of
///   the renames that end it paying for it.
///
/// Only a path that is itself a regular file is removed: never a symlink
/// or its target (the target is replaced at the end, as before, so the
/// link stays a link), a device, a FIFO, a folder, or `/dev/stdout` and
/// the other descriptors of this process.
///
/// Call it only once the run goes ahead (every usage check passed) and its
/// earlier reports have been read where the run reads them (`@rerun.txt`,
/// `--timings`, the inputs of `merge`).
enum EarlierReport {
    /// Removes the earlier report at each path (see ``EarlierReport``), then
    /// syncs each folder it removed one from once, so that the removal
    /// outlives a power cut and the file system frees the old blocks now,
    /// not in the first sync of the end of the run. A report that cannot
    /// be removed is left: the run's own report still replaces it at the
    /// end. The pages of a symlink's existing target leave the page cache
    /// instead (see ``ReportFile/dropCachedPages(ofReportAt:)``).
    /// - Returns: The permission bits of each report removed, by its path,
    ///   for the new report to keep (see ``ReportBatch/earlierModes``).
    ///
    /// `paths` pairs each path as the user gave it (the key of the mode
    /// returned) with where it is from the folder the run started in (see
    /// ``anchored(_:)``).
    static func remove(at paths: [(given: String, anchored: String)]) -> [String: mode_t] {
        var modes: [String: mode_t] = [:]
        var folders: [String] = []
        for (given, anchored) in paths {
            guard let mode = remove(at: anchored) else {
                ReportFile.dropCachedPages(ofReportAt: anchored)
                continue
            }
            modes[given] = mode
            let folder = ReportDestination.folder(of: anchored)
            if !folders.contains(folder) { folders.append(folder) }
        }
        for folder in folders { ReportFile.syncFolder(folder) }
        return modes
    }

    /// Each report path with, when it is relative, the current folder
    /// before it: call it on the thread that starts the run, before any
    /// story. A step run in process (`--in-process`) may change the
    /// process's folder while a report thread removes the earlier reports
    /// (the folder is put back only after its story): a relative path then
    /// named a file of the same name in the step's folder.
    static func anchored(_ paths: [String]) -> [(given: String, anchored: String)] {
        var folder: String?
        return paths.map { path in
            guard !path.hasPrefix("/"), !path.isEmpty, ReportDestination.descriptorNumber(path) == nil else { return (path, path) }
            if folder == nil {
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                folder = getcwd(&buffer, buffer.count) != nil ? buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : ""
            }
            // Without a current folder (removed), the path as it is.
            guard let folder, !folder.isEmpty else { return (path, path) }
            return (path, (folder == "/" ? "" : folder) + "/" + path)
        }
    }

    /// Removes the file at one report path when the path itself is a
    /// regular file; returns its permission bits, or nil when nothing was
    /// removed.
    static func remove(at path: String) -> mode_t? {
        guard ReportDestination.descriptorNumber(path) == nil else { return nil }
        var status = stat()
        // lstat: a symlink is looked at itself, never followed. Were the
        // path swapped for a link before the unlink, the unlink would
        // remove that link, never its target.
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        guard unlink(path) == 0 else { return nil }
        return status.st_mode & 0o7777
    }
}
