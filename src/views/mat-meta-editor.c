/* mat-meta-editor.c - placeholder, to be written */
#include "config.h"

#include "mat-meta-editor.h"

struct _MatMetaEditor
{
  GtkWidget    parent_instance;
  MatMaterial *material;
};

G_DEFINE_FINAL_TYPE (MatMetaEditor, mat_meta_editor, GTK_TYPE_WIDGET)

static void
mat_meta_editor_dispose (GObject *object)
{
  MatMetaEditor *self = MAT_META_EDITOR (object);

  g_clear_object (&self->material);
  G_OBJECT_CLASS (mat_meta_editor_parent_class)->dispose (object);
}

static void
mat_meta_editor_class_init (MatMetaEditorClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = mat_meta_editor_dispose;
}

static void
mat_meta_editor_init (MatMetaEditor *self)
{
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
  g_set_object (&self->material, material);
}
