// liedyn — arithmetic: the scalar-generic Eigen aliases shared by every layer above.
#pragma once

#include <Eigen/Core>

namespace liedyn {

/// A 3-vector of scalar S.
template <class S>
using Vector3 = Eigen::Matrix<S, 3, 1>;
/// A 4-vector of scalar S.
template <class S>
using Vector4 = Eigen::Matrix<S, 4, 1>;
/// A 6-vector (a spatial vector's coordinates, linear first) of scalar S.
template <class S>
using Vector6 = Eigen::Matrix<S, 6, 1>;
/// A 3 × 3 matrix of scalar S.
template <class S>
using Matrix3 = Eigen::Matrix<S, 3, 3>;
/// A 4 × 4 matrix of scalar S.
template <class S>
using Matrix4 = Eigen::Matrix<S, 4, 4>;
/// A 6 × 6 matrix of scalar S.
template <class S>
using Matrix6 = Eigen::Matrix<S, 6, 6>;
/// A vector of run-time size of scalar S.
template <class S>
using VectorX = Eigen::Matrix<S, Eigen::Dynamic, 1>;
/// A matrix of run-time size of scalar S.
template <class S>
using MatrixX = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
/// A 6 × n matrix (columns of spatial vectors) of scalar S.
template <class S>
using Matrix6X = Eigen::Matrix<S, 6, Eigen::Dynamic>;

}  // namespace liedyn
