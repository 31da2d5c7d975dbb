import Foundation

extension StoryLoader {
    /// The story files in a folder and the folders under it, sorted by
    /// path: files ending in `.stories` or `.feature`; a folder is searched
    /// whatever its name (`old.stories/` too). Symlinked folders are
    /// followed, each real folder once: a symlink loop is reported, not
    /// walked again. What is passed over for a reason the user cannot see
    /// (a folder that cannot be read, a symlink that leads nowhere, a loop)
    /// gets a warning.
    static func folderFiles(_ folder: String) -> (files: [String], diagnostics: [Diagnostic]) {
        var walk = FolderWalk()
        walk.visit(folder.hasSuffix("/") ? String(folder.dropLast()) : folder)
        return (walk.files, walk.diagnostics)
    }
}

/// One walk down a folder tree.
private struct FolderWalk {
    var files: [String] = []
    var diagnostics: [Diagnostic] = []
    /// The real folders walked, by device and inode.
    private var seen: Set<[UInt64]> = []

    mutating func visit(_ folder: String) {
        var status = stat()
        guard stat(folder, &status) == 0 else { return }
        guard seen.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted else {
            diagnostics.append(Diagnostic(
                .warning, at: nil, problem: "\(folder) is a folder already searched (a symlink loop, or a second link to it); it is not searched again",
                help: "point the symlink elsewhere, or ignore this warning"))
            return
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            diagnostics.append(Diagnostic(
                .warning, at: nil, problem: "cannot read the folder \(folder); its stories are skipped",
                help: "check that the folder is readable (chmod +rx)"))
            return
        }
        for name in names.sorted() {
            let path = folder + "/" + name
            var status = stat()
            if stat(path, &status) != 0 {
                // A symlink that leads nowhere, or an entry gone since.
                if StoryLoader.extensions.contains((name as NSString).pathExtension) {
                    diagnostics.append(Diagnostic(
                        .warning, at: nil, problem: "\(path) leads nowhere (a broken symlink?); it is skipped",
                        help: "fix or remove the symlink"))
                }
                continue
            }
            if (status.st_mode & S_IFMT) == S_IFDIR {
                visit(path)
            } else if StoryLoader.extensions.contains((name as NSString).pathExtension) {
                files.append(path)
            }
        }
    }
}
