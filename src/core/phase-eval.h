/* phase-eval.h - runtime expansion and the phase evaluator
 *
 * The one function that answers "what does material M look like in block
 * B at this moment" (evaluator.md). The timeline, the preview, the compare
 * view and mat0tool eval all call it; it never allocates.
 */
#pragma once

#include <glib.h>

#include "mat0.h"

G_BEGIN_DECLS

/* The 76-byte runtime phase (formats.md 2.2). */
typedef struct {
  float   f[16];      /* diffuse RGBA, ambient RGBA, specular RGBA, emissive RGBA */
  float   power;      /* +64 */
  gint32  tex_slot;   /* +68: -1 untextured, else the phase index whose
                         texture name this is (the editor's slot numbering) */
  gint32  i18;        /* +72: (int8) p[17]; -1 when untextured */
} PhaseRuntime;

G_STATIC_ASSERT (sizeof (PhaseRuntime) == 76);

/* interpMask bits */
#define PHASE_EVAL_BLEND_AMBIENT_RGB   0x01u
#define PHASE_EVAL_BLEND_DIFFUSE_RGB   0x02u
#define PHASE_EVAL_BLEND_SPECULAR_RGB  0x04u
#define PHASE_EVAL_BLEND_EMISSIVE_RGB  0x08u
#define PHASE_EVAL_BLEND_AMBIENT_A     0x10u
#define PHASE_EVAL_BLEND_KNOWN         0x1Fu

typedef enum {
  PHASE_EVAL_MODE_LOOP = 0,
  PHASE_EVAL_MODE_PING_PONG = 1,
  PHASE_EVAL_MODE_ONE_SHOT = 2,
  PHASE_EVAL_MODE_RANDOM = 3,
} PhaseEvalMode;

/* Expands one 34-byte record; @tex_slot is used when the phase is textured. */
void phase_eval_expand          (const Mat0Phase *phase,
                                 gint32           tex_slot,
                                 PhaseRuntime    *out);
/* Expands all phases of @material into @out (n_phases elements); phase i
 * gets tex_slot i when textured. */
void phase_eval_expand_material (const Mat0Material *material,
                                 PhaseRuntime       *out);

typedef struct {
  const PhaseRuntime *phases;    /* expanded phases */
  guint               n_phases;
  const Mat0Block    *block;     /* %NULL: no animation */
  guint               static_phase;  /* used when there is no block or key */
} PhaseEvalInput;

typedef struct {
  PhaseRuntime value;     /* the blended runtime phase */
  guint        mode;      /* block mode 0..7 (0 without a block) */
  guint32      period;    /* the last key's time, ms (0 without keys) */
  guint32      r;         /* the effective position in the period */
  gint         segment;   /* key k, -1 without keys */
  gint         next;      /* the next key, -1 without keys */
  float        alpha;
  gint         phase_a;   /* phase indices used, -1 when there is no phase */
  gint         phase_b;
  gboolean     hold;          /* static result or one-shot clamp */
  gboolean     unknown_mode;  /* mode 4..7 evaluated as loop */
  gboolean     bad_key;       /* a key's k0 >= n_phases: the last phase used */
} PhaseEvalResult;

/* Game time: delta = (uint32)(now - start); @random_offset is R of mode 3:
 * a mode-3 track sits at R % period whatever the time (the engine draws a
 * fresh R at every evaluation). */
void phase_eval_at_time (const PhaseEvalInput *input,
                         guint32               now,
                         guint32               start,
                         guint32               random_offset,
                         PhaseEvalResult      *result);

/* Normalized: @t in [0, 1] (else 0.5) is a position in one period; the
 * mode and R are ignored. */
void phase_eval_at_t    (const PhaseEvalInput *input,
                         float                 t,
                         PhaseEvalResult      *result);

/* "loop", "ping-pong", "once", "random", or "unknown" for 4..7
 * (mat0_fields_mode ()->id). */
const char *phase_eval_mode_name (guint mode);

G_END_DECLS
