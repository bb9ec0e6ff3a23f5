/* mat-meta-editor.c - metaA..metaD, locked until the user unlocks them
 *
 * The metadata after the payload counts is read by the game's unit code,
 * not by the renderer (formats.md 2.4): metaA the ground surface class,
 * metaB unused, metaC the speed factor (a float, its raw bits kept),
 * metaD the hit points lost per second. Names, meanings and readings come
 * from mat0-fields. The editor changes the fields only after an explicit
 * unlock. Fields the payload version does not store show their runtime
 * default and cannot be edited (converting the version is the flags
 * inspector's job).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "mat0.h"
#include "mat0-fields.h"
#include "mat-library.h"
#include "mat-model-error.h"
#include "mat-meta-editor-private.h"
#include "mat-style.h"
#include "mat-wheel.h"

enum {
  META_A = MAT0_META_A,
  META_B = MAT0_META_B,
  META_C = MAT0_META_C,
  META_D = MAT0_META_D,
  N_META = MAT0_N_META
};

struct _MatMetaEditor
{
  GtkWidget        parent_instance;

  MatMaterial     *material;
  GSignalGroup    *signals;
  MatBatch        *batch;    /* the others selected: edits go to them too */
  gboolean         unlocked;
  gboolean         syncing;

  /* template */
  GtkStack        *stack;
  GtkLabel        *error_label;
  GtkLabel        *lock_note;
  GtkToggleButton *unlock_button;
  GtkImage        *lock_icon;
  GtkLabel        *lock_label;
  GtkLabel        *readonly_label;
  GtkLabel        *name_a;
  GtkLabel        *name_b;
  GtkLabel        *name_c;
  GtkLabel        *name_d;
  GtkLabel        *caption_a;
  GtkLabel        *caption_b;
  GtkLabel        *caption_c;
  GtkLabel        *caption_d;
  GtkLabel        *status_a;
  GtkLabel        *status_b;
  GtkLabel        *status_c;
  GtkLabel        *status_d;
  GtkSpinButton   *spin_a;
  GtkSpinButton   *spin_b;
  GtkSpinButton   *spin_d;
  GtkWidget       *meta_c_box;
  GtkEntry        *float_c;
  GtkEntry        *raw_c;
};

G_DEFINE_FINAL_TYPE (MatMetaEditor, mat_meta_editor, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MATERIAL,
  PROP_UNLOCKED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];



static gboolean
is_editable (MatMetaEditor *self)
{
  return self->material != NULL && mat_material_get_editable (self->material);
}

static gboolean
has_field (MatMetaEditor *self,
           guint          field)
{
  if (self->material == NULL)
    return FALSE;
  switch (field)
    {
    case META_A:
    case META_B:
      return mat_material_has_meta_ab (self->material);
    case META_C:
      return mat_material_has_meta_c (self->material);
    default:
      return mat_material_has_meta_d (self->material);
    }
}

static void
show_error (MatMetaEditor *self,
            const GError  *error)
{
  if (error == NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
      return;
    }
  gtk_label_set_text (self->error_label, error->message);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
}

/* metaC as text */

static float
bits_to_float (guint32 bits)
{
  float f;

  memcpy (&f, &bits, sizeof f);
  return f;
}

static guint32
float_to_bits (float f)
{
  guint32 bits;

  memcpy (&bits, &f, sizeof bits);
  return bits;
}

/* Returns: (transfer full): the shortest text that reads back as @bits. */
static char *
format_float (guint32 bits)
{
  float f = bits_to_float (bits);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (f))
    return g_strdup ("nan");
  if (isinf (f))
    return g_strdup (f < 0 ? "-inf" : "inf");
  for (int precision = 6; precision <= 9; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", precision);
      g_ascii_formatd (buf, sizeof buf, format, f);
      if ((float) g_ascii_strtod (buf, NULL) == f)
        break;
    }
  if (strpbrk (buf, ".e") == NULL)
    return g_strconcat (buf, ".0", NULL);   /* "1.0": plainly a float */
  return g_strdup (buf);
}

static char *
format_raw (guint32 bits)
{
  return g_strdup_printf ("0x%08X", bits);
}

/* A float as the user typed it (a decimal comma is accepted). */
static gboolean
parse_float (const char *text,
             guint32    *bits)
{
  g_autofree char *copy = g_strstrip (g_strdelimit (g_strdup (text), ",", '.'));
  char *end = NULL;
  double value;
  float f;

  if (*copy == '\0')
    return FALSE;
  value = g_ascii_strtod (copy, &end);
  if (end == copy || *end != '\0')
    return FALSE;
  f = (float) value;
  if (isfinite (value) && !isfinite (f))
    return FALSE;       /* out of float range */
  *bits = float_to_bits (f);
  return TRUE;
}

static gboolean
parse_raw (const char *text,
           guint32    *bits)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));
  const char *digits = copy;
  guint64 value;

  if (g_ascii_strncasecmp (digits, "0x", 2) == 0)
    digits += 2;
  if (*digits == '\0' || strlen (digits) > 8)
    return FALSE;
  for (const char *p = digits; *p != '\0'; p++)
    if (!g_ascii_isxdigit (*p))
      return FALSE;
  if (!g_ascii_string_to_unsigned (digits, 16, 0, G_MAXUINT32, &value, NULL))
    return FALSE;
  *bits = (guint32) value;
  return TRUE;
}

/* Readings (formats.md 2.4) */

/* Returns: (transfer full): what metaC means to a unit. */
static char *
speed_status (guint32 bits)
{
  g_autofree char *value = format_float (bits);

  if (!isfinite (bits_to_float (bits)))
    return g_strdup (_("not a finite number: no speed a unit could use"));
  /* Translators: metaC, the speed factor, as a float: "units move at 0.5 × their normal speed" */
  return g_strdup_printf (_("units move at %s × their normal speed"), value);
}

static char *
damage_status (guint32 value)
{
  /* Translators: metaD: hit points a unit on this surface loses per second */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u hit point lost per second",
                                       "%u hit points lost per second", value),
                          value);
}

/* Sync: model -> widgets */

static void
set_status (GtkLabel   *label,
            const char *text,
            gboolean    absent)
{
  gtk_label_set_text (label, text);
  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL && *text != '\0');
  if (absent)
    gtk_widget_add_css_class (GTK_WIDGET (label), "absent");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (label), "absent");
}

static void
clear_entry_error (GtkEntry *entry)
{
  gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
}

static void
sync_sensitivity (MatMetaEditor *self)
{
  gboolean editable = is_editable (self);
  gboolean open = editable && self->unlocked;

  gtk_widget_set_sensitive (GTK_WIDGET (self->spin_a), open && has_field (self, META_A));
  gtk_widget_set_sensitive (GTK_WIDGET (self->spin_b), open && has_field (self, META_B));
  gtk_widget_set_sensitive (self->meta_c_box, open && has_field (self, META_C));
  gtk_widget_set_sensitive (GTK_WIDGET (self->spin_d), open && has_field (self, META_D));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "meta.unlocked", editable);
  gtk_widget_set_visible (GTK_WIDGET (self->readonly_label), self->material != NULL && !editable);

  gtk_image_set_from_icon_name (self->lock_icon, self->unlocked ? "changes-allow-symbolic"
                                                                : "changes-prevent-symbolic");
  gtk_label_set_text_with_mnemonic (self->lock_label, self->unlocked ? _("_Lock Editing")
                                                                     : _("_Unlock Editing"));
  gtk_label_set_text (self->lock_note,
                      self->unlocked
                      ? _("Editing is unlocked. The game’s unit code reads these fields of the "
                          "surface a unit stands on: its ground class, speed and damage.")
                      : _("Locked so nothing changes by accident. The game’s unit code reads these "
                          "fields of the surface a unit stands on: its ground class, speed and damage."));
}

static void
sync_meta (MatMetaEditor *self)
{
  MatMaterial *m = self->material;
  guint a = m != NULL ? mat_material_get_meta_a (m) : MAT0_DEFAULT_META_A;
  guint b = m != NULL ? mat_material_get_meta_b (m) : MAT0_DEFAULT_META_B;
  guint32 c = m != NULL ? mat_material_get_meta_c (m) : MAT0_DEFAULT_META_C;
  guint32 d = m != NULL ? mat_material_get_meta_d (m) : MAT0_DEFAULT_META_D;
  g_autofree char *float_text = format_float (c);
  g_autofree char *raw_text = format_raw (c);
  g_autofree char *text = NULL;

  self->syncing = TRUE;

  gtk_spin_button_set_value (self->spin_a, a);
  gtk_spin_button_set_value (self->spin_b, b);
  gtk_spin_button_set_value (self->spin_d, d);
  gtk_editable_set_text (GTK_EDITABLE (self->float_c), float_text);
  gtk_editable_set_text (GTK_EDITABLE (self->raw_c), raw_text);
  clear_entry_error (self->float_c);
  clear_entry_error (self->raw_c);

  if (has_field (self, META_A))
    {
      g_autofree char *sa = mat0_fields_dup_ground_reading (a);

      set_status (self->status_a, sa, FALSE);
      /* metaB: the caption says it all */
      set_status (self->status_b, NULL, FALSE);
    }
  else
    {
      /* Translators: a runtime default the payload version does not store */
      text = g_strdup_printf (_("default %u (not in file)"), MAT0_DEFAULT_META_A);
      set_status (self->status_a, text, TRUE);
      g_free (text);
      text = g_strdup_printf (_("default %u (not in file)"), MAT0_DEFAULT_META_B);
      set_status (self->status_b, text, TRUE);
      g_clear_pointer (&text, g_free);
    }

  if (has_field (self, META_C))
    {
      text = speed_status (c);
      set_status (self->status_c, text, FALSE);
      g_clear_pointer (&text, g_free);
    }
  else
    {
      g_autofree char *def_float = format_float (MAT0_DEFAULT_META_C);
      g_autofree char *def_raw = format_raw (MAT0_DEFAULT_META_C);

      /* Translators: metaC's default as float and raw bits */
      text = g_strdup_printf (_("default %s, raw %s (not in file)"), def_float, def_raw);
      set_status (self->status_c, text, TRUE);
      g_clear_pointer (&text, g_free);
    }

  if (has_field (self, META_D))
    {
      text = damage_status (d);
      set_status (self->status_d, text, FALSE);
    }
  else
    {
      text = g_strdup_printf (_("default %u (not in file)"), MAT0_DEFAULT_META_D);
      set_status (self->status_d, text, TRUE);
    }

  self->syncing = FALSE;
}

static void
sync_all (MatMetaEditor *self)
{
  gtk_stack_set_visible_child_name (self->stack, self->material != NULL ? "content" : "empty");
  sync_meta (self);
  sync_sensitivity (self);
}

static void
on_attr2_changed (MatMetaEditor *self)
{
  sync_meta (self);
  sync_sensitivity (self);
}

static void
on_editable_changed (MatMetaEditor *self)
{
  if (!is_editable (self))
    mat_meta_editor_set_unlocked (self, FALSE);
  sync_sensitivity (self);
}

/* Edits: widgets -> model */

static gboolean
can_write (MatMetaEditor *self)
{
  return !self->syncing && self->unlocked && is_editable (self);
}

static void
report (MatMetaEditor *self,
        gboolean       ok,
        const GError  *error)
{
  show_error (self, ok ? NULL : error);
  if (!ok)
    sync_meta (self);   /* put the widgets back */
}

/* Several materials selected: the batch is the shown one's. */
static gboolean
batch_active (MatMetaEditor *self)
{
  return self->batch != NULL && mat_batch_get_leader (self->batch) == self->material;
}

static gboolean
batch_differs (MatMetaEditor *self,
               Mat0MetaId     meta)
{
  return batch_active (self) &&
         mat_batch_differs (self->batch, &(MatApply) { .kind = MAT_APPLY_META, .meta = meta });
}

static void
sync_differs (MatMetaEditor *self)
{
  GtkWidget *widgets[N_META] = { GTK_WIDGET (self->spin_a), GTK_WIDGET (self->spin_b),
                                 self->meta_c_box, GTK_WIDGET (self->spin_d) };

  for (guint m = 0; m < N_META; m++)
    {
      if (batch_differs (self, m))
        gtk_widget_add_css_class (widgets[m], "differs");
      else
        gtk_widget_remove_css_class (widgets[m], "differs");
    }
}

/* An edit of @meta, with the others selected in the same undo step. */
static void
history_begin (MatMetaEditor *self)
{
  MatLibrary *library = mat_material_get_library (self->material);

  if (library != NULL)
    mat_history_begin_group (mat_library_get_history (library), NULL);
}

static gboolean
history_end (MatMetaEditor  *self,
             gboolean        ok,
             Mat0MetaId      meta,
             GError        **error)
{
  MatLibrary *library = mat_material_get_library (self->material);

  if (ok && batch_active (self))
    ok = mat_batch_apply (self->batch, &(MatApply) { .kind = MAT_APPLY_META, .meta = meta }, error);
  if (library != NULL)
    mat_history_end_group (mat_library_get_history (library));
  return ok;
}

static void
on_spin_changed (MatMetaEditor *self,
                 GtkSpinButton *spin)
{
  g_autoptr(GError) error = NULL;
  double value = gtk_spin_button_get_value (spin);
  Mat0MetaId meta = spin == self->spin_a ? MAT0_META_A : spin == self->spin_b ? MAT0_META_B : MAT0_META_D;
  gboolean ok = TRUE;

  if (self->syncing)
    return;
  if (!can_write (self))
    {
      sync_meta (self);   /* locked: the model's value stays */
      return;
    }
  history_begin (self);
  if (spin == self->spin_a && (guint8) value != mat_material_get_meta_a (self->material))
    ok = mat_material_set_meta_a (self->material, (guint8) value, &error);
  else if (spin == self->spin_b && (guint8) value != mat_material_get_meta_b (self->material))
    ok = mat_material_set_meta_b (self->material, (guint8) value, &error);
  else if (spin == self->spin_d && (guint32) value != mat_material_get_meta_d (self->material))
    ok = mat_material_set_meta_d (self->material, (guint32) value, &error);
  ok = history_end (self, ok, meta, &error);
  report (self, ok, error);
}

static void
write_meta_c (MatMetaEditor *self,
              guint32        bits)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = TRUE;

  history_begin (self);
  if (bits != mat_material_get_meta_c (self->material))
    ok = mat_material_set_meta_c (self->material, bits, &error);
  ok = history_end (self, ok, MAT0_META_C, &error);
  report (self, ok, error);
  if (ok)
    sync_meta (self);   /* normalise both texts */
}

/* Commits an entry's text; text that does not parse is marked and
 * writes nothing. Text that still shows the model's value writes
 * nothing either (a NaN's payload bits survive a focus change). */
static void
commit_entry (MatMetaEditor *self,
              GtkEntry      *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  guint32 current, bits;
  g_autofree char *shown = NULL;
  gboolean ok;

  if (!can_write (self) || !has_field (self, META_C))
    return;
  current = mat_material_get_meta_c (self->material);
  shown = entry == self->float_c ? format_float (current) : format_raw (current);
  if (g_strcmp0 (text, shown) == 0)
    return;

  ok = entry == self->float_c ? parse_float (text, &bits) : parse_raw (text, &bits);
  if (!ok)
    {
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      return;
    }
  write_meta_c (self, bits);
}

static void
on_float_activate (MatMetaEditor *self,
                   GtkEntry      *entry)
{
  commit_entry (self, entry);
}

static void
on_raw_activate (MatMetaEditor *self,
                 GtkEntry      *entry)
{
  commit_entry (self, entry);
}

static void
on_entry_changed (GtkEntry *entry,
                  gpointer  user_data)
{
  clear_entry_error (entry);
}

static void
on_entry_focus_leave (GtkEventControllerFocus *controller,
                      MatMetaEditor           *self)
{
  commit_entry (self, GTK_ENTRY (gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller))));
}

static void
add_focus_commit (MatMetaEditor *self,
                  GtkEntry      *entry)
{
  GtkEventController *focus = gtk_event_controller_focus_new ();

  g_signal_connect (focus, "leave", G_CALLBACK (on_entry_focus_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (entry), focus);
}

/* GObject */

static void
mat_meta_editor_dispose (GObject *object)
{
  MatMetaEditor *self = MAT_META_EDITOR (object);

  if (self->signals != NULL)
    g_signal_group_set_target (self->signals, NULL);
  g_clear_object (&self->signals);
  g_clear_object (&self->material);
  if (self->batch != NULL)
    g_signal_handlers_disconnect_by_data (self->batch, self);
  g_clear_object (&self->batch);
  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_META_EDITOR);
  G_OBJECT_CLASS (mat_meta_editor_parent_class)->dispose (object);
}

static void
mat_meta_editor_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  MatMetaEditor *self = MAT_META_EDITOR (object);

  switch (prop_id)
    {
    case PROP_MATERIAL:
      g_value_set_object (value, self->material);
      break;
    case PROP_UNLOCKED:
      g_value_set_boolean (value, self->unlocked);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_meta_editor_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  MatMetaEditor *self = MAT_META_EDITOR (object);

  switch (prop_id)
    {
    case PROP_MATERIAL:
      mat_meta_editor_set_material (self, g_value_get_object (value));
      break;
    case PROP_UNLOCKED:
      mat_meta_editor_set_unlocked (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_meta_editor_class_init (MatMetaEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_meta_editor_dispose;
  object_class->get_property = mat_meta_editor_get_property;
  object_class->set_property = mat_meta_editor_set_property;

  properties[PROP_MATERIAL] =
    g_param_spec_object ("material", NULL, NULL, MAT_TYPE_MATERIAL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNLOCKED] =
    g_param_spec_boolean ("unlocked", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "matmetaeditor");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/parkan/MatEdit/mat-meta-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, stack);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, error_label);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, lock_note);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, unlock_button);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, lock_icon);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, lock_label);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, readonly_label);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, name_a);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, name_b);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, name_c);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, name_d);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, caption_a);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, caption_b);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, caption_c);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, caption_d);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, status_a);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, status_b);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, status_c);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, status_d);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, spin_a);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, spin_b);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, spin_d);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, meta_c_box);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, float_c);
  gtk_widget_class_bind_template_child (widget_class, MatMetaEditor, raw_c);
  gtk_widget_class_bind_template_callback (widget_class, on_spin_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_float_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_raw_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_entry_changed);

  gtk_widget_class_install_property_action (widget_class, "meta.unlocked", "unlocked");
}

static void
mat_meta_editor_init (MatMetaEditor *self)
{
  mat_style_ensure ();
  gtk_widget_init_template (GTK_WIDGET (self));
  {
    GtkLabel *const names[N_META] = { self->name_a, self->name_b, self->name_c, self->name_d };
    GtkLabel *const captions[N_META] = { self->caption_a, self->caption_b, self->caption_c, self->caption_d };

    /* what each field is, from the table */
    for (guint i = 0; i < N_META; i++)
      {
        gtk_label_set_text (names[i], _(mat0_fields_meta ((Mat0MetaId) i)->label));
        gtk_label_set_text (captions[i], _(mat0_fields_meta ((Mat0MetaId) i)->meaning));
      }
  }
  add_focus_commit (self, self->float_c);
  add_focus_commit (self, self->raw_c);
  /* the wheel over a field scrolls the page unless the field is focused */
  mat_wheel_scrolls_page (GTK_WIDGET (self->spin_a));
  mat_wheel_scrolls_page (GTK_WIDGET (self->spin_b));
  mat_wheel_scrolls_page (GTK_WIDGET (self->spin_d));

  self->signals = g_signal_group_new (MAT_TYPE_MATERIAL);
  g_signal_group_connect_swapped (self->signals, "notify::meta-a", G_CALLBACK (sync_meta), self);
  g_signal_group_connect_swapped (self->signals, "notify::meta-b", G_CALLBACK (sync_meta), self);
  g_signal_group_connect_swapped (self->signals, "notify::meta-c", G_CALLBACK (sync_meta), self);
  g_signal_group_connect_swapped (self->signals, "notify::meta-d", G_CALLBACK (sync_meta), self);
  g_signal_group_connect_swapped (self->signals, "notify::attr2", G_CALLBACK (on_attr2_changed), self);
  g_signal_group_connect_swapped (self->signals, "notify::editable",
                                  G_CALLBACK (on_editable_changed), self);

  sync_all (self);
}

GtkWidget *
mat_meta_editor_new (void)
{
  return g_object_new (MAT_TYPE_META_EDITOR, NULL);
}

MatMaterial *
mat_meta_editor_get_material (MatMetaEditor *self)
{
  g_return_val_if_fail (MAT_IS_META_EDITOR (self), NULL);
  return self->material;
}

void
mat_meta_editor_set_material (MatMetaEditor *self, MatMaterial *material)
{
  g_return_if_fail (MAT_IS_META_EDITOR (self));
  g_return_if_fail (material == NULL || MAT_IS_MATERIAL (material));

  if (self->material == material)
    return;
  g_set_object (&self->material, material);
  g_signal_group_set_target (self->signals, material);
  mat_meta_editor_set_unlocked (self, FALSE);
  show_error (self, NULL);
  sync_all (self);
  sync_differs (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MATERIAL]);
}

gboolean
mat_meta_editor_get_unlocked (MatMetaEditor *self)
{
  g_return_val_if_fail (MAT_IS_META_EDITOR (self), FALSE);
  return self->unlocked;
}

void
mat_meta_editor_set_unlocked (MatMetaEditor *self,
                              gboolean       unlocked)
{
  g_return_if_fail (MAT_IS_META_EDITOR (self));

  unlocked = !!unlocked && is_editable (self);
  if (self->unlocked == unlocked)
    return;
  self->unlocked = unlocked;
  if (!unlocked)
    sync_meta (self);   /* drop text typed but not applied */
  sync_sensitivity (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNLOCKED]);
}

GtkWidget *
mat_meta_editor_get_test_widget (MatMetaEditor *self,
                                 const char    *name)
{
  static const struct { const char *name; goffset offset; } table[] = {
    { "unlock", G_STRUCT_OFFSET (MatMetaEditor, unlock_button) },
    { "meta-a", G_STRUCT_OFFSET (MatMetaEditor, spin_a) },
    { "meta-b", G_STRUCT_OFFSET (MatMetaEditor, spin_b) },
    { "meta-c-float", G_STRUCT_OFFSET (MatMetaEditor, float_c) },
    { "meta-c-raw", G_STRUCT_OFFSET (MatMetaEditor, raw_c) },
    { "meta-d", G_STRUCT_OFFSET (MatMetaEditor, spin_d) },
    { "status-a", G_STRUCT_OFFSET (MatMetaEditor, status_a) },
    { "status-b", G_STRUCT_OFFSET (MatMetaEditor, status_b) },
    { "status-c", G_STRUCT_OFFSET (MatMetaEditor, status_c) },
    { "status-d", G_STRUCT_OFFSET (MatMetaEditor, status_d) },
    { "name-a", G_STRUCT_OFFSET (MatMetaEditor, name_a) },
    { "name-b", G_STRUCT_OFFSET (MatMetaEditor, name_b) },
    { "name-c", G_STRUCT_OFFSET (MatMetaEditor, name_c) },
    { "name-d", G_STRUCT_OFFSET (MatMetaEditor, name_d) },
    { "caption-a", G_STRUCT_OFFSET (MatMetaEditor, caption_a) },
    { "caption-b", G_STRUCT_OFFSET (MatMetaEditor, caption_b) },
    { "caption-c", G_STRUCT_OFFSET (MatMetaEditor, caption_c) },
    { "caption-d", G_STRUCT_OFFSET (MatMetaEditor, caption_d) },
    { "lock-note", G_STRUCT_OFFSET (MatMetaEditor, lock_note) },
    { "error", G_STRUCT_OFFSET (MatMetaEditor, error_label) },
  };

  g_return_val_if_fail (MAT_IS_META_EDITOR (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (g_str_equal (name, table[i].name))
      return G_STRUCT_MEMBER (GtkWidget *, self, table[i].offset);
  return NULL;
}

void
mat_meta_editor_set_batch (MatMetaEditor *self,
                           MatBatch      *batch)
{
  g_return_if_fail (MAT_IS_META_EDITOR (self));
  g_return_if_fail (batch == NULL || MAT_IS_BATCH (batch));

  if (self->batch == batch)
    return;
  if (self->batch != NULL)
    g_signal_handlers_disconnect_by_data (self->batch, self);
  g_set_object (&self->batch, batch);
  if (batch != NULL)
    g_signal_connect_swapped (batch, "changed", G_CALLBACK (sync_differs), self);
  sync_differs (self);
}
