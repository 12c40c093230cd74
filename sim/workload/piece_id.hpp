// What a task of a step computes or moves: a piece of a layer (docs/model/deepseek-v3.md §9: attn,
// mlp; dispatch, combine) in a pass (F forward, B input backward, W weight backward), or a
// step-level task. Profiler traces name pieces in text ("attn(F)"); parse_piece reads that once at
// the boundary, piece_label writes it back for reports and exported traces.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace codesim::workload {

enum class PieceKind {
  attention,
  mlp,
  head,       // output head and MTP modules
  embedding,  // the token embedding: its lookup (F) and its table's gradient (W)
  recompute,  // a layer's forward run again before its backward (full recomputation)
  dispatch,
  combine,
  send,  // pipeline send to the next (F) or previous (B) stage
  recv,  // waiting for a neighbour stage's send
  optimizer,
  dp_reduce_scatter,
  dp_all_gather,
  tp_all_gather,  // tensor parallelism's collectives of activations
  tp_reduce_scatter,
  tp_all_reduce,
  cp_all_gather,  // context parallelism's keys and values, and their gradients
  cp_reduce_scatter,
};

enum class Pass { none, forward, backward, weight };

struct PieceId {
  PieceKind kind = PieceKind::attention;
  Pass pass = Pass::none;
  auto operator<=>(const PieceId&) const = default;
};

// "attn(F)", "mlp(W)", "dispatch(B)", "send(F)", "optimizer", "dp reduce-scatter", ...
std::string piece_label(PieceId p);

// The piece a trace's label names, or none ("attn(F)" -> {attention, forward}).
std::optional<PieceId> parse_piece(std::string_view label);

}  // namespace codesim::workload
