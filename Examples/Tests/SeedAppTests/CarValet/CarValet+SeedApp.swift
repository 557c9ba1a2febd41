import CarValetApp

extension CarValet: SeedApp {
    typealias Failure = CarValetError
    typealias Store = CarValetStore
}
