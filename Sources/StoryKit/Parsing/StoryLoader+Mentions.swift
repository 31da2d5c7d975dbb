import Foundation

extension StoryLoader {
    /// The story files under the paths, each file once however often and
    /// however it is named, with the lines asked for in each.
    ///
    /// A file is one file by its device and inode (``FileIdentity``): `d`
    /// and `./d`, a folder and a file in it, a folder and a folder under
    /// it, a link and its target. It keeps the place and the spelling of
    /// its first mention. As in Cucumber, a mention without lines (the file
    /// by name, or a folder that holds it) runs the whole file, whatever
    /// lines other mentions ask for; lines asked for by several spellings
    /// add up.
    /// - Parameters:
    ///   - paths: The paths, without their lines (see
    ///     ``StoryFilter/splitLines(_:)``).
    ///   - lines: The lines asked for, by path as spelled in `paths`.
    /// - Returns: The files in the order they run, the lines asked for by
    ///   file (a file not in it runs whole), and a diagnostic for each path
    ///   that does not exist and each warning of a folder walk.
    static func files(at paths: [String], lines: [String: Set<Int>]) -> (
        files: [String], lines: [String: Set<Int>], diagnostics: [Diagnostic]
    ) {
        var files: [String] = []
        /// The lines of each file, in the order of `files`; nil for whole.
        var chosen: [Set<Int>?] = []
        var places: [String: Int] = [:]
        var diagnostics: [Diagnostic] = []
        for path in paths {
            let (found, isFolder, problems) = StoryLoader.files(at: path)
            diagnostics += problems
            let asked = isFolder ? nil : lines[path]
            if isFolder, let numbers = lines[path] {
                // `feat:3` ran the whole folder, silently.
                let spelled = numbers.sorted().map(String.init).joined(separator: ":")
                diagnostics.append(Diagnostic(
                    at: nil, problem: "\(path) is a folder: \(path):\(spelled) names no line of a story file",
                    help: "name the file with its line (\(path)/NAME.stories:\(numbers.min()!)), or the folder alone to run all of it"))
            }
            for file in found {
                let identity = FileIdentity.of(file) ?? StoryPath.canonical(file)
                guard let place = places[identity] else {
                    places[identity] = files.count
                    files.append(file)
                    chosen.append(asked)
                    continue
                }
                if let earlier = chosen[place], let asked {
                    chosen[place] = earlier.union(asked)
                } else {
                    chosen[place] = nil
                }
            }
        }
        diagnostics += sameButForNormalization(files)
        var linesByFile: [String: Set<Int>] = [:]
        for (file, asked) in zip(files, chosen) {
            if let asked { linesByFile[file] = asked }
        }
        return (files, linesByFile, diagnostics)
    }
}
