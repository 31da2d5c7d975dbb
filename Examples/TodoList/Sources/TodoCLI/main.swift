import Foundation
import TodoCore

// todo add TEXT… | list | done N | sync — the list lives in ./todo.json.
func failure(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("todo: \(message)\n".utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let file = URL(fileURLWithPath: ProcessInfo.processInfo.environment["TODO_FILE"] ?? "todo.json")
var list: TodoList
do { list = try TodoList(file: file) } catch { failure("cannot read \(file.path): \(error)", status: 2) }

switch arguments.first {
case "add" where arguments.count > 1:
    list.items.append(TodoItem(text: arguments.dropFirst().joined(separator: " "), done: false))
    try list.save()
    print("Added \(list.items.count): \(list.items.last!.text)")
case "list":
    if list.items.isEmpty { print("Nothing to do.") }
    for (index, item) in list.items.enumerated() { print("\(index + 1). [\(item.done ? "x" : " ")] \(item.text)") }
case "done" where arguments.count == 2:
    guard let number = Int(arguments[1]), list.items.indices.contains(number - 1) else {
        failure("there is no item \(arguments[1])", status: 1)
    }
    list.items[number - 1].done = true
    try list.save()
    print("Done: \(list.items[number - 1].text)")
case "sync":
    guard let server = ProcessInfo.processInfo.environment["TODO_SERVICE_URL"].flatMap(URL.init(string:)) else {
        failure("set TODO_SERVICE_URL to the sync server's URL", status: 2)
    }
    do {
        let id = try await SyncClient(server: server).send(list.items)
        print("Synced \(list.items.count) items as list \(id).")
    } catch {
        failure("cannot sync: \(error)", status: 3)
    }
default:
    failure("usage: todo add TEXT | todo list | todo done NUMBER | todo sync", status: 64)
}
