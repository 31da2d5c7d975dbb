import Foundation
import Synchronization

extension SourceLocation {
    /// The file's path relative to the working directory when it lies
    /// under it (as Swift `#filePath`s do); a Swift file elsewhere (a run
    /// started in another folder) relative to its package's root (the
    /// nearest folder above it with a `Package.swift`); else as given.
    public var displayPath: String { Self.relativePath(file) }

    /// The location as `path:line` with the path made relative.
    public var displayFileAndLine: String { "\(displayPath):\(line)" }

    /// Hands ``displayPath`` to `body` as UTF-8, without making a String
    /// of it when the path lies under the working directory (the case
    /// ``relativePath(_:)`` cuts as bytes): reports write one per step.
    func withDisplayPathUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var path = file
        if let cut = path.withUTF8(Self.workingDirectoryCut) { return path.withUTF8 { body(UnsafeBufferPointer(rebasing: $0[cut...])) } }
        var display = displayPath
        return display.withUTF8(body)
    }

    static let workingDirectory: String = FileManager.default.currentDirectoryPath + "/"

    static func relativePath(_ path: String) -> String {
        // The common case compared and cut as bytes (reports ask for every
        // step's place).
        var bytes = path
        if let cut = bytes.withUTF8(workingDirectoryCut) { return String(Substring(path.utf8.dropFirst(cut))) }
        return path.hasPrefix(workingDirectory) ? String(path.dropFirst(workingDirectory.count)) : packageRelative(path) ?? path
    }

    /// The package root (with its final `/`) of each folder of Swift files
    /// asked about, "" when none: looked up once per folder.
    private static let packageRoots = Mutex<[String: String]>([:])

    /// An absolute Swift file's path relative to its package's root, or
    /// nil when it is not in a package.
    static func packageRelative(_ path: String) -> String? {
        guard path.hasPrefix("/"), path.hasSuffix(".swift") else { return nil }
        let directory = (path as NSString).deletingLastPathComponent
        let root = packageRoots.withLock { roots in
            if let known = roots[directory] { return known }
            var folder = directory
            var found = ""
            while folder.count > 1 {
                if FileManager.default.fileExists(atPath: folder + "/Package.swift") {
                    found = folder + "/"
                    break
                }
                folder = (folder as NSString).deletingLastPathComponent
            }
            roots[directory] = found
            return found
        }
        return root.isEmpty ? nil : String(path.dropFirst(root.count))
    }

    /// How many bytes of a path (in UTF-8) the working directory takes
    /// when the path starts with the folder's very bytes and goes on with
    /// an ASCII byte (where cutting bytes and cutting Characters agree);
    /// nil otherwise.
    private static func workingDirectoryCut(_ path: UnsafeBufferPointer<UInt8>) -> Int? {
        var folder = workingDirectory
        return folder.withUTF8 { prefix in
            guard path.count > prefix.count, path[prefix.count] < 0x80,
                UnsafeBufferPointer(rebasing: path[..<prefix.count]).elementsEqual(prefix)
            else { return nil }
            return prefix.count
        }
    }
}
