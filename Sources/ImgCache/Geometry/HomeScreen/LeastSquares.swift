/// Ordinary least squares for the few-feature fits of the home-screen estimator: the coefficients
/// `c` minimising the sum of `(row . c - target)^2`, through the normal equations with a vanishing
/// ridge (1e-9 on each coefficient but the first) so that a feature that is zero in every row gets a
/// zero coefficient instead of making the system singular.
enum LeastSquares {
    /// The coefficients for `rows` (each starting with the constant 1) and their `targets`.
    static func fit(_ rows: [[Double]], _ targets: [Double]) -> [Double] {
        let count = rows[0].count
        var matrix = [[Double]](repeating: [Double](repeating: 0, count: count + 1), count: count)
        for (row, target) in zip(rows, targets) {
            for i in 0..<count {
                for j in 0..<count { matrix[i][j] += row[i] * row[j] }
                matrix[i][count] += row[i] * target
            }
        }
        for i in 1..<count { matrix[i][i] += 1e-9 }
        return solve(matrix)
    }

    /// Gaussian elimination with partial pivoting on an augmented n x (n+1) matrix.
    private static func solve(_ augmented: [[Double]]) -> [Double] {
        var matrix = augmented
        let count = matrix.count
        for column in 0..<count {
            let pivot = (column..<count).max { abs(matrix[$0][column]) < abs(matrix[$1][column]) }!
            matrix.swapAt(column, pivot)
            for row in (column + 1)..<count where matrix[column][column] != 0 {
                let factor = matrix[row][column] / matrix[column][column]
                for j in column...count { matrix[row][j] -= factor * matrix[column][j] }
            }
        }
        var solution = [Double](repeating: 0, count: count)
        for row in stride(from: count - 1, through: 0, by: -1) {
            let rest = ((row + 1)..<count).reduce(0) { $0 + matrix[row][$1] * solution[$1] }
            solution[row] = matrix[row][row] == 0 ? 0 : (matrix[row][count] - rest) / matrix[row][row]
        }
        return solution
    }
}
