//! [`FloatNetwork`]: a net's numbers as trained, float32, and the net file
//! that stores them (safetensors; its metadata is the header, header.rs).

use std::path::Path;

use safetensors::tensor::{Dtype, SafeTensors};

use heterodox_data::atomic::write_file;

use super::error::NnueError;
use super::header::{NetworkHeader, SCALE};

/// The largest net file read (a bound before reading it whole).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// A net's numbers as trained (and as its file stores them).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub header: NetworkHeader,
    /// `inputs` rows of `hidden`: the row of feature `f` starts at
    /// `f * hidden`.
    pub ft_weight: Vec<f32>,
    pub ft_bias: Vec<f32>,
    /// The side to act's `hidden` weights, then the opponent's.
    pub out_weight: Vec<f32>,
    pub out_bias: f32,
}

fn bytes_of(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

impl FloatNetwork {
    /// The file's bytes: the same net always gives the same bytes (the
    /// header's keys in order, which the safetensors crate's writer does
    /// not promise), and the safetensors crate reads them back.
    pub fn to_bytes(&self) -> Result<Vec<u8>, NnueError> {
        let (inputs, hidden) = (self.header.inputs, self.header.hidden);
        let tensors = [
            ("ft.bias", &self.ft_bias[..], vec![hidden]),
            ("ft.weight", &self.ft_weight[..], vec![inputs, hidden]),
            ("out.bias", std::slice::from_ref(&self.out_bias), vec![1]),
            ("out.weight", &self.out_weight[..], vec![2 * hidden]),
        ];
        let mut header = serde_json::Map::new();
        let metadata: serde_json::Map<String, serde_json::Value> = self
            .header
            .metadata()
            .into_iter()
            .map(|(k, v)| (k, serde_json::Value::String(v)))
            .collect();
        header.insert("__metadata__".to_owned(), metadata.into());
        let mut data = Vec::new();
        for (name, values, shape) in &tensors {
            if values.len() != shape.iter().product::<usize>() {
                return Err(NnueError::Format(format!(
                    "{name} holds {} numbers, not {shape:?}",
                    values.len()
                )));
            }
            let start = data.len();
            data.extend(bytes_of(values));
            let info = serde_json::json!({
                "dtype": "F32",
                "shape": shape,
                "data_offsets": [start, data.len()],
            });
            header.insert((*name).to_owned(), info);
        }
        let mut text = serde_json::to_vec(&header).expect("a JSON map serializes");
        while text.len() % 8 != 0 {
            text.push(b' ');
        }
        let mut bytes = Vec::with_capacity(8 + text.len() + data.len());
        bytes.extend((text.len() as u64).to_le_bytes());
        bytes.extend(text);
        bytes.extend(data);
        Ok(bytes)
    }

    /// Writes the file atomically.
    pub fn save(&self, path: &Path) -> Result<(), NnueError> {
        let bytes = self.to_bytes()?;
        write_file(path, &bytes).map_err(|e| NnueError::File {
            path: path.to_owned(),
            message: e.to_string(),
        })
    }

    /// Reads a net file, checking its format and every tensor's shape
    /// against the metadata before copying it.
    pub fn load(path: &Path) -> Result<FloatNetwork, NnueError> {
        let file_error = |message: String| NnueError::File {
            path: path.to_owned(),
            message,
        };
        let size = std::fs::metadata(path)
            .map_err(|e| file_error(e.to_string()))?
            .len();
        if size > MAX_FILE_BYTES {
            return Err(file_error(format!(
                "{size} bytes, more than a net file may have ({MAX_FILE_BYTES})"
            )));
        }
        let bytes = std::fs::read(path).map_err(|e| file_error(e.to_string()))?;
        FloatNetwork::from_bytes(&bytes).map_err(|e| file_error(e.to_string()))
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<FloatNetwork, NnueError> {
        let file =
            SafeTensors::deserialize(bytes).map_err(|e| NnueError::Format(format!("{e:?}")))?;
        let (_, metadata) =
            SafeTensors::read_metadata(bytes).map_err(|e| NnueError::Format(format!("{e:?}")))?;
        let header = NetworkHeader::from_metadata(
            metadata
                .metadata()
                .as_ref()
                .ok_or_else(|| NnueError::Format("no metadata".to_owned()))?,
        )?;
        let (inputs, hidden) = (header.inputs, header.hidden);
        let tensor = |name: &str, shape: &[usize]| {
            read_f32_tensor(&file, name, shape).map_err(NnueError::Format)
        };
        Ok(FloatNetwork {
            ft_weight: tensor("ft.weight", &[inputs, hidden])?,
            ft_bias: tensor("ft.bias", &[hidden])?,
            out_weight: tensor("out.weight", &[2 * hidden])?,
            out_bias: tensor("out.bias", &[1])?[0],
            header,
        })
    }

    /// The float output in centipawns for the side to act, from each
    /// perspective's active features (the reference the quantized net is
    /// measured against).
    pub fn evaluate(&self, us: &[u16], them: &[u16]) -> f32 {
        let hidden = self.header.hidden;
        let mut sum = self.out_bias;
        for (half, features) in [us, them].into_iter().enumerate() {
            let mut acc = self.ft_bias.clone();
            for &f in features {
                let row = &self.ft_weight[f as usize * hidden..][..hidden];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
            let weights = &self.out_weight[half * hidden..][..hidden];
            sum += acc
                .iter()
                .zip(weights)
                .map(|(a, w)| a.clamp(0.0, 1.0) * w)
                .sum::<f32>();
        }
        sum * SCALE as f32
    }
}

/// The float32 tensor `name` of a safetensors file, checked to have
/// `shape` and finite values; the message says what is wrong. Every
/// reader of the net's tensors (the net file, the trainer's checkpoint)
/// uses it.
pub fn read_f32_tensor(
    file: &SafeTensors<'_>,
    name: &str,
    shape: &[usize],
) -> Result<Vec<f32>, String> {
    let view = file
        .tensor(name)
        .map_err(|_| format!("no tensor '{name}'"))?;
    if view.dtype() != Dtype::F32 || view.shape() != shape {
        return Err(format!(
            "tensor '{name}' is {:?} {:?}, not F32 {shape:?}",
            view.dtype(),
            view.shape()
        ));
    }
    let values: Vec<f32> = view
        .data()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    if let Some(bad) = values.iter().find(|v| !v.is_finite()) {
        return Err(format!("tensor '{name}' holds {bad}"));
    }
    Ok(values)
}
