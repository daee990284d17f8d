// Generated from schemas/components/StringTransform.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/StringTransform.schema.json","title":"StringTransform params","description":"Text processing: split a text into a list at delimiters, or merge references into one text through a template. Output: result (a list for split, a text for merge).","type":"object","properties":{"method":{"enum":["split","merge"],"description":"split: cut the text of split_ref at the delimiters. merge: render script. When absent: split (RAGFlow's backend default; the editor writes merge for new nodes)."},"script":{"type":"string","description":"merge: the template. {cpn@var}, {sys.x}, {env.x} (and {item}/{index}/{result} inside an Iteration) are replaced; list values are joined by the first delimiter, other values shown as a Message shows them. Jinja syntax ({% %}, {{ }}) is rendered."},"split_ref":{"type":"string","description":"split: reference to the text to split (cpn@var, sys.x or env.x; braces optional). Nothing splits as the empty text."},"delimiters":{"type":"array","items":{"type":"string"},"minItems":1,"description":"split: the text is cut at any of these, taken literally; empty pieces are kept. merge: the first one joins list values. Default [\",\"]."},"outputs":{"type":["object","array"],"description":"{result: {type}}: declared for the editor."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/StringTransform.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.method !== undefined){
let data0 = data.method;
if(!((data0 === "split") || (data0 === "merge"))){
const err0 = {instancePath:instancePath+"/method",schemaPath:"#/properties/method/enum",keyword:"enum",params:{allowedValues: schema31.properties.method.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.method.enum,parentSchema:schema31.properties.method,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.script !== undefined){
let data1 = data.script;
if(typeof data1 !== "string"){
const err1 = {instancePath:instancePath+"/script",schemaPath:"#/properties/script/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.script.type,parentSchema:schema31.properties.script,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.split_ref !== undefined){
let data2 = data.split_ref;
if(typeof data2 !== "string"){
const err2 = {instancePath:instancePath+"/split_ref",schemaPath:"#/properties/split_ref/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.split_ref.type,parentSchema:schema31.properties.split_ref,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.delimiters !== undefined){
let data3 = data.delimiters;
if(Array.isArray(data3)){
if(data3.length < 1){
const err3 = {instancePath:instancePath+"/delimiters",schemaPath:"#/properties/delimiters/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema31.properties.delimiters,data:data3};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
const len0 = data3.length;
for(let i0=0; i0<len0; i0++){
let data4 = data3[i0];
if(typeof data4 !== "string"){
const err4 = {instancePath:instancePath+"/delimiters/" + i0,schemaPath:"#/properties/delimiters/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.delimiters.items.type,parentSchema:schema31.properties.delimiters.items,data:data4};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath:instancePath+"/delimiters",schemaPath:"#/properties/delimiters/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.delimiters.type,parentSchema:schema31.properties.delimiters,data:data3};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.outputs !== undefined){
let data5 = data.outputs;
if(!data5 || typeof data5 != "object"){
const err6 = {instancePath:instancePath+"/outputs",schemaPath:"#/properties/outputs/type",keyword:"type",params:{type: schema31.properties.outputs.type},message:"must be object,array",schema:schema31.properties.outputs.type,parentSchema:schema31.properties.outputs,data:data5};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
}
else {
const err7 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"method":true,"script":true,"split_ref":true,"delimiters":true,"outputs":true},"dynamicProps":false,"dynamicItems":false};

