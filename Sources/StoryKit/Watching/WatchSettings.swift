import Foundation

/// How watch mode (`--watch`) looks for changes, and where the Swift sources
/// it rebuilds on are.
struct WatchSettings: Equatable {
    /// Whether changes are found by scanning every 0.5 s (`--watch-poll`)
    /// rather than with inotify.
    var isPolling = false
    /// The Swift sources whose changes rebuild the executable
    /// (`--watch-sources DIR`); nil for `Sources/` of the package in the
    /// current folder.
    var sourcesFolder: String?

    /// These settings, polling.
    func polling() -> WatchSettings {
        var settings = self
        settings.isPolling = true
        return settings
    }

    /// These settings, with the Swift sources in `folder`.
    func sources(_ folder: String) -> WatchSettings {
        var settings = self
        settings.sourcesFolder = folder
        return settings
    }

    /// The paths `--watch` watches when none is given: `Stories/` when
    /// there is one, else the current folder.
    static var defaultPaths: [String] {
        StoryPath.exists("Stories") ? ["Stories"] : ["."]
    }

    /// The Swift sources to watch: the folder given, or `Sources/` when the
    /// current folder holds a package; nil when there are none.
    var swiftSources: String? {
        if let sourcesFolder { return sourcesFolder }
        return StoryPath.exists("Package.swift") && StoryPath.exists("Sources") ? "Sources" : nil
    }
}
