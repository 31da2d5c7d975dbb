import Foundation

extension SourceLocation {
    /// The file's path relative to the working directory when it lies
    /// under it (as Swift `#filePath`s do), else as given.
    public var displayPath: String { Self.relativePath(file) }

    /// The location as `path:line` with the path made relative.
    public var displayFileAndLine: String { "\(displayPath):\(line)" }

    static let workingDirectory: String = FileManager.default.currentDirectoryPath + "/"

    static func relativePath(_ path: String) -> String {
        // The common case compared and cut as bytes (reports ask for every
        // step's place): the same answer when the path starts with the
        // folder's very bytes and goes on with an ASCII byte.
        let utf8 = path.utf8
        let prefix = workingDirectory.utf8
        if utf8.count > prefix.count, utf8.starts(with: prefix) {
            let rest = utf8.index(utf8.startIndex, offsetBy: prefix.count)
            if utf8[rest] < 0x80 { return String(Substring(utf8[rest...])) }
        }
        return path.hasPrefix(workingDirectory) ? String(path.dropFirst(workingDirectory.count)) : path
    }
}
