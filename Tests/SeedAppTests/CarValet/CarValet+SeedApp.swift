import CarValetApp

extension CarValet: SeedApp {
    typealias Failure = CarValetError

    static var containerName: String { CarValetTool.containerName }
}
