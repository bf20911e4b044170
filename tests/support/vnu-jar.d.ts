// vnu-jar has no types: its main module exports the path of the Nu HTML checker's jar, as a String object.
declare module 'vnu-jar' {
  const jar: string;
  export default jar;
}
