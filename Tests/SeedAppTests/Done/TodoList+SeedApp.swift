import DoneApp

extension TodoList: SeedApp {
    typealias Failure = TodoListError

    static var containerName: String { DoneTool.containerName }
}
