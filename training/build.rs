//! Makes this crate's test binaries load libtorch's CUDA backend, so that
//! the CUDA test runs on a GPU machine (see the root package's build.rs:
//! without `--no-as-needed` the linker drops `libtorch_cuda.so` and
//! `tch::Cuda::is_available()` is false everywhere). The library itself
//! needs nothing: the binaries that link it decide.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-link-arg-tests=-Wl,--no-as-needed");
    println!("cargo:rustc-link-arg-tests=-ltorch");
}
