import DoneApp

extension TodoList: SeedApp {
    typealias Failure = TodoListError
    typealias Store = DoneStore
}
