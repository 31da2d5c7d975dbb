import Foundation

extension SourceLocation {
    /// The file's path relative to the working directory when it lies
    /// under it (as Swift `#filePath`s do), else as given.
    public var displayPath: String { Self.relativePath(file) }

    /// The location as `path:line` with the path made relative.
    public var displayFileAndLine: String { "\(displayPath):\(line)" }

    /// Hands ``displayPath`` to `body` as UTF-8, without making a String
    /// of it when the path lies under the working directory (the case
    /// ``relativePath(_:)`` cuts as bytes): reports write one per step.
    func withDisplayPathUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var path = file
        var workingDirectory = Self.workingDirectory
        let cut = path.withUTF8 { bytes in
            workingDirectory.withUTF8 { prefix -> Int? in
                guard bytes.count > prefix.count, bytes[prefix.count] < 0x80,
                    UnsafeBufferPointer(rebasing: bytes[..<prefix.count]).elementsEqual(prefix)
                else { return nil }
                return prefix.count
            }
        }
        if let cut { return path.withUTF8 { body(UnsafeBufferPointer(rebasing: $0[cut...])) } }
        var display = displayPath
        return display.withUTF8(body)
    }

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
