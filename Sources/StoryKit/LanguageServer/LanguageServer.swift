import Foundation

/// `storyrun lsp`: a Language Server Protocol server over standard input and
/// output for `.stories` and `.feature` files.
///
/// It matches what the editor holds with the frozen registry a run uses —
/// the same matcher, parameter types and conversions — and never runs a
/// step's closure: only the parameter types' conversions, which a run
/// performs before a step too.
struct LanguageServer {
    /// The registry of the executable the server runs in.
    let registry: StepRegistry
    /// The open documents, by URI.
    var documents: [String: StoryDocument] = [:]
    /// The story files of the workspace, for completion and references.
    var project: ProjectStories
    var matcher: CachingMatcher
    private var isShutDown = false
    /// Notifications and replies go here.
    let send: (JSONValue) -> Void

    /// Creates a server; `send` writes a message to the client.
    init(registry: StepRegistry, root: String = FileManager.default.currentDirectoryPath, send: @escaping (JSONValue) -> Void) {
        self.registry = registry
        self.send = send
        matcher = CachingMatcher(registry: registry)
        project = ProjectStories(root: root)
    }

    /// Serves standard input and output until `exit`; returns the exit status.
    static func run(registry: StepRegistry) -> ExitStatus {
        // Whatever user code prints must not corrupt the protocol: standard
        // output is kept for messages, and what is printed goes to stderr.
        let protocolOutput = dup(STDOUT_FILENO)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        var connection = LSPConnection(input: STDIN_FILENO, output: protocolOutput)
        let writer = connection
        var server = LanguageServer(registry: registry, send: { writer.write($0) })
        while let message = connection.read() {
            if let status = server.handle(message) { return status }
        }
        if let failure = connection.failure {
            FileHandle.standardError.write(Data("storyrun lsp: \(failure); the server stopped\n".utf8))
            return .inputError
        }
        return .success
    }

    /// Handles one message; returns the exit status once the client says `exit`.
    mutating func handle(_ message: JSONValue) -> ExitStatus? {
        let method = message["method"]?.stringValue ?? ""
        let params = message["params"] ?? [:]
        let id = message["id"]
        guard let id else {
            return notify(method, params: params)
        }
        guard !isShutDown || method == "shutdown" else {
            send(["id": id, "error": ["code": -32600, "message": "the server has shut down"]])
            return nil
        }
        let result: JSONValue?
        switch method {
        case "initialize": result = initialize(params)
        case "shutdown": isShutDown = true; result = nil
        case "textDocument/completion": result = completion(params)
        case "textDocument/hover": result = hover(params)
        case "textDocument/definition": result = definition(params)
        case "textDocument/references": result = references(params)
        case "textDocument/documentSymbol": result = documentSymbols(params)
        case "textDocument/formatting": result = formatting(params)
        case "textDocument/codeAction": result = codeActions(params)
        default:
            send(["id": id, "error": ["code": -32601, "message": "storyrun lsp does not handle \(method)"]])
            return nil
        }
        send(["id": id, "result": result ?? .null])
        return nil
    }

    private mutating func notify(_ method: String, params: JSONValue) -> ExitStatus? {
        let textDocument = params["textDocument"] ?? [:]
        let uri = textDocument["uri"]?.stringValue ?? ""
        switch method {
        case "exit": return isShutDown ? .success : .storyFailed
        case "textDocument/didOpen":
            open(uri: uri, version: textDocument["version"]?.integer ?? 0, text: textDocument["text"]?.stringValue ?? "")
        case "textDocument/didChange":
            // Full sync: the last change holds the whole text.
            let changes = params["contentChanges"]?.arrayValue ?? []
            if let text = changes.last?["text"]?.stringValue {
                open(uri: uri, version: textDocument["version"]?.integer ?? 0, text: text)
            }
        case "textDocument/didClose":
            documents[uri] = nil
            send(["method": "textDocument/publishDiagnostics", "params": ["uri": .string(uri), "diagnostics": []]])
        case "workspace/didChangeWatchedFiles":
            project.forget()
        default: break
        }
        return nil
    }

    /// Parses, matches and checks a document, and publishes its diagnostics.
    mutating func open(uri: String, version: Int, text: String) {
        let document = StoryDocument(uri: uri, version: version, text: text, matcher: &matcher)
        documents[uri] = document
        send([
            "method": "textDocument/publishDiagnostics",
            "params": ["uri": .string(uri), "version": .number(version), "diagnostics": .array(diagnostics(of: document))],
        ])
    }

    private mutating func initialize(_ params: JSONValue) -> JSONValue {
        let rootURI = params["rootUri"]?.stringValue ?? params["workspaceFolders"]?.arrayValue?.first?["uri"]?.stringValue
        if let rootURI { project.root = StoryDocument.path(ofURI: rootURI) } else if let path = params["rootPath"]?.stringValue {
            project.root = path
        }
        return [
            "capabilities": [
                "textDocumentSync": ["openClose": true, "change": 1],
                "completionProvider": ["triggerCharacters": [" "], "resolveProvider": false],
                "hoverProvider": true,
                "definitionProvider": true,
                "referencesProvider": true,
                "documentSymbolProvider": true,
                "documentFormattingProvider": true,
                "codeActionProvider": ["codeActionKinds": ["quickfix"]],
            ],
            "serverInfo": ["name": "storyrun", "version": .string(StoryRun.version)],
        ]
    }

    /// The document and the line (from 1) and UTF-16 column a request points at.
    func position(_ params: JSONValue) -> (document: StoryDocument, line: Int, character: Int)? {
        guard let uri = params["textDocument"]?["uri"]?.stringValue, let document = documents[uri],
            let position = params["position"], let line = position["line"]?.integer,
            line >= 0, line <= document.lines.count
        else { return nil }
        // A line past the text, or a negative column, is nowhere: never a trap.
        return (document, line + 1, max(0, position["character"]?.integer ?? 0))
    }

    /// An LSP location: a file and line (from 1).
    static func location(file: String, line: Int) -> JSONValue {
        ["uri": .string(StoryDocument.uri(ofPath: file)), "range": StoryDocument.range(line: max(0, line - 1), start: 0, end: 0)]
    }
}
