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

/* Where a track stands @delta ms after its instance started (game time,
 * evaluator.md): the position r in the period that the evaluator blends
 * at. Loop, and any mode but 1..3: delta % period; ping-pong (1): the
 * same, reflected (period - r) in odd periods, so r runs back on the way
 * back and is period at each turnaround; once (2): delta during the first
 * period, then period (held at the end); random (3): @random_offset %
 * period whatever the time. A period of 0 is static: r = 0. @hold
 * (nullable) is set when nothing moves: once after its first period, or a
 * period of 0. This is the one definition of the game-time position:
 * phase_eval_at_time () uses it, and every view that shows where a track
 * is (the preview's readout, the timeline's playhead, the compare view)
 * and mat0tool eval show what it gives. */
guint32 phase_eval_position (guint     mode,
                             guint32   period,
                             guint32   delta,
                             guint32   random_offset,
                             gboolean *hold);

/* How long a track of @mode and @period takes before it comes round to
 * the same time again: 2 * period for ping-pong (there and back), else
 * the period (once holds after it); 0 for a period of 0. Saturates at
 * G_MAXUINT32. A time scale that shows one cycle runs from 0 to this. */
guint32 phase_eval_cycle    (guint     mode,
                             guint32   period);

/* Where @delta falls on such a scale: delta modulo the cycle, and for
 * once, delta clamped to the period (it holds there). 0 for a period of 0. */
guint32 phase_eval_cycle_time (guint   mode,
                               guint32 period,
                               guint32 delta);

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
