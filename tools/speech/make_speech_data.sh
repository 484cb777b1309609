#!/bin/bash
# Makes the speech-denoising data of the alpha-stable MF experiment (HAMCMC paper, Simsekli et
# al. 2016, Sec. 4.2): clean speech synthesised by espeak-ng (several voices, disjoint training
# and test sentences), synthetic pink and brown noise from sox, and mixtures of each test
# sentence with one noise at 5 dB SNR; everything 16 kHz mono 16-bit WAV. Deterministic (sox -R,
# espeak-ng has no randomness). Needs the Debian packages espeak-ng and sox
# (third_party/debian_packages.txt).
#
# Usage: make_speech_data.sh OUT_DIR [--short]
#   OUT_DIR/train/clean_NN.wav                     training speech (W is trained on it)
#   OUT_DIR/test/{clean,noise,mix}_NN.wav          test speech, its noise and their mixture
#   --short: one training and one test sentence (the tool's default run and smoke test).
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 OUT_DIR [--short]" >&2
  exit 2
fi
out="$1"
short="${2:-}"
for tool in espeak-ng sox; do
  command -v "$tool" >/dev/null || { echo "$0: $tool not found (apt-get install $tool)" >&2; exit 1; }
done
mkdir -p "$out/train" "$out/test"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

snr_db=5
voices=(en-us en-gb en-us+f3 en-gb-scotland en-us+m3 en-gb-x-rp+f2)
train_texts=(
  "The birch canoe slid on the smooth planks."
  "Glue the sheet to the dark blue background."
  "It is easy to tell the depth of a well."
  "These days a chicken leg is a rare dish."
  "Rice is often served in round bowls."
  "The juice of lemons makes fine punch."
  "The box was thrown beside the parked truck."
  "The hogs were fed chopped corn and garbage."
  "Four hours of steady work faced us."
  "A large size in stockings is hard to sell."
  "The boy was there when the sun rose."
  "A rod is used to catch pink salmon."
)
test_texts=(
  "The source of the huge river is the clear spring."
  "Kick the ball straight and follow through."
  "Help the woman get back to her feet."
  "A pot of tea helps to pass the evening."
  "Smoky fires lack flame and heat."
  "The soft cushion broke the man's fall."
)
noises=(pinknoise brownnoise)
if [[ "$short" == "--short" ]]; then
  train_texts=("${train_texts[@]:0:2}")
  test_texts=("${test_texts[@]:0:1}")
fi

# speak VOICE TEXT OUT: 16 kHz mono 16-bit, normalised to -12 dBFS peak (room for the noise).
speak() {
  espeak-ng -v "$1" -s 150 -w "$tmp/raw.wav" "$2"
  sox -R "$tmp/raw.wav" -r 16000 -c 1 -b 16 "$3" norm -12
}

rms() { sox "$1" -n stat 2>&1 | awk '/RMS +amplitude/ {print $3}'; }

for n in "${!train_texts[@]}"; do
  voice="${voices[$((n % ${#voices[@]}))]}"
  speak "$voice" "${train_texts[$n]}" "$(printf '%s/train/clean_%02d.wav' "$out" "$n")"
done

for n in "${!test_texts[@]}"; do
  voice="${voices[$((n % ${#voices[@]}))]}"
  noise="${noises[$((n % ${#noises[@]}))]}"
  clean="$(printf '%s/test/clean_%02d.wav' "$out" "$n")"
  noise_file="$(printf '%s/test/noise_%02d.wav' "$out" "$n")"
  mix="$(printf '%s/test/mix_%02d.wav' "$out" "$n")"
  speak "$voice" "${test_texts[$n]}" "$clean"
  samples="$(soxi -s "$clean")"
  sox -R -r 16000 -c 1 -n -b 16 "$tmp/noise.wav" synth "${samples}s" "$noise"
  # Scale the noise so that 20 log10(rms(speech) / rms(noise)) = snr_db.
  gain="$(awk -v s="$(rms "$clean")" -v r="$(rms "$tmp/noise.wav")" -v snr="$snr_db" \
    'BEGIN { printf "%.6f", s / (r * 10 ^ (snr / 20)) }')"
  sox -R -v "$gain" "$tmp/noise.wav" "$noise_file"
  sox -R -m -v 1 "$clean" -v 1 "$noise_file" "$mix"
done
echo "wrote $(ls "$out/train" | wc -l) training and $(ls "$out/test" | grep -c mix_) test files to $out"
