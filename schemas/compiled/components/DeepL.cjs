// Generated from schemas/components/DeepL.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/DeepL.schema.json","title":"DeepL params","description":"Translation with DeepL (RAGFlow DeepLParam). Usable as an Agent tool and as a canvas node. Outputs: formalized_content.","type":"object","properties":{"query":{"type":"string","description":"The text to translate. As a canvas node: a reference (\"sys.query\", \"cpn@var\") or text with {references}. As an Agent tool the model supplies it."},"auth_key":{"type":"string","description":"DeepL authentication key. Empty: warning; it must be set before the tool can run."},"source_lang":{"type":"string","description":"Source language code, e.g. \"ZH\" (default)."},"target_lang":{"type":"string","description":"Target language code, e.g. \"EN-GB\" (default)."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/DeepL.schema.json" */;
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
if(data.query !== undefined){
let data0 = data.query;
if(typeof data0 !== "string"){
const err0 = {instancePath:instancePath+"/query",schemaPath:"#/properties/query/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.query.type,parentSchema:schema31.properties.query,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.auth_key !== undefined){
let data1 = data.auth_key;
if(typeof data1 !== "string"){
const err1 = {instancePath:instancePath+"/auth_key",schemaPath:"#/properties/auth_key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.auth_key.type,parentSchema:schema31.properties.auth_key,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.source_lang !== undefined){
let data2 = data.source_lang;
if(typeof data2 !== "string"){
const err2 = {instancePath:instancePath+"/source_lang",schemaPath:"#/properties/source_lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.source_lang.type,parentSchema:schema31.properties.source_lang,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.target_lang !== undefined){
let data3 = data.target_lang;
if(typeof data3 !== "string"){
const err3 = {instancePath:instancePath+"/target_lang",schemaPath:"#/properties/target_lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.target_lang.type,parentSchema:schema31.properties.target_lang,data:data3};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
}
else {
const err4 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"query":true,"auth_key":true,"source_lang":true,"target_lang":true},"dynamicProps":false,"dynamicItems":false};

