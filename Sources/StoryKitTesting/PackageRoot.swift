import Foundation

/// Finds the package a test file belongs to.
enum PackageRoot {
    /// The nearest folder above the file that holds a `Package.swift`.
    static func containing(_ filePath: String) -> String {
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder.path
            }
            folder.deleteLastPathComponent()
        }
        return FileManager.default.currentDirectoryPath
    }
}
