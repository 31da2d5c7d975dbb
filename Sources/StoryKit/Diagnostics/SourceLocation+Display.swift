import Foundation

extension SourceLocation {
    /// The file's path relative to the working directory when it lies
    /// under it (as Swift `#filePath`s do), else as given.
    public var displayPath: String { Self.relativePath(file) }

    /// The location as `path:line` with the path made relative.
    public var displayFileAndLine: String { "\(displayPath):\(line)" }

    static let workingDirectory: String = FileManager.default.currentDirectoryPath + "/"

    static func relativePath(_ path: String) -> String {
        path.hasPrefix(workingDirectory) ? String(path.dropFirst(workingDirectory.count)) : path
    }
}
