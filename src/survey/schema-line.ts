// The first line of a survey's files, which points an editor's YAML language server at the JSON
// schema of the file (the schemas are made from the structs, at the root of the repository), so
// that the editor completes keys and marks mistakes as they are typed.

/** The first line of `surveys/<slug>/survey.yaml`. */
export const surveySchemaLine = '# yaml-language-server: $schema=../../survey.schema.json';

/** The first line of `surveys/site.yaml`. */
export const siteSchemaLine = '# yaml-language-server: $schema=../site.schema.json';
