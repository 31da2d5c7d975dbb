import Foundation
import PackagePlugin

/// A build-tool plugin for a test target: one Swift Testing test per story.
/// It reads the target's story files (`.stories` and `.feature` in its folder,
/// or, when it has none, in the package's `Stories/` folder) and generates a
/// suite per file and a test per story, so `swift test list` lists every
/// story and `swift test --filter NAME` runs one. The target declares the step
/// classes in a type named `StorySteps` conforming to `StoryTestSteps`.
@main
struct StoryTestsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        var files = target.sourceFiles.map(\.url).filter(Self.isStoryFile)
        if files.isEmpty {
            files = Self.storyFiles(under: context.package.directoryURL.appendingPathComponent("Stories"))
        }
        files.sort { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("GeneratedStoryTests.swift")
        return [
            .buildCommand(
                displayName: "Generating one test per story for \(target.name) (\(files.count) story files)",
                executable: try context.tool(named: "storyrun-test-generator").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: files, outputFiles: [output])
        ]
    }

    static func isStoryFile(_ url: URL) -> Bool {
        url.pathExtension == "stories" || url.pathExtension == "feature"
    }

    /// The story files under a folder, at any depth.
    static func storyFiles(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter(isStoryFile).map(\.standardizedFileURL)
    }
}
