//! Makes the `heterodox` binary load libtorch's CUDA backend.
//!
//! Nothing in our code calls into `libtorch_cuda.so` directly: it registers
//! the CUDA device when it is loaded. The linker's default `--as-needed`
//! would drop it, and `tch::Cuda::is_available()` would then be false even on
//! a GPU machine. Linking `libtorch.so` (which depends on the CUDA library)
//! with `--no-as-needed` keeps it, as tch's own binaries do. Scoped to this
//! package's binaries, so the Python extension never links libtorch.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-link-arg-bins=-Wl,--no-as-needed");
    println!("cargo:rustc-link-arg-bins=-ltorch");
}
