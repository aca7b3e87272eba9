import Places

/// A precision in the contract's enum and back (the same four words).
extension Components.Schemas.Precision {
    init(_ precision: LocationPrecision) {
        switch precision {
        case .exact: self = .exact
        case .street: self = .street
        case .district: self = .district
        case .city: self = .city
        }
    }
}

extension LocationPrecision {
    init(_ precision: Components.Schemas.Precision) {
        switch precision {
        case .exact: self = .exact
        case .street: self = .street
        case .district: self = .district
        case .city: self = .city
        }
    }
}
