// Generated from schemas/components/Wikipedia.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/Wikipedia.schema.json","title":"Wikipedia params","description":"Wikipedia search (RAGFlow WikipediaParam). Usable as an Agent tool and as a canvas node. Outputs: formalized_content.","type":"object","properties":{"query":{"type":"string","description":"The subject to look up. As a canvas node: a reference (\"sys.query\", \"cpn@var\") or text with {references}. As an Agent tool the model supplies it."},"top_n":{"type":["integer","string"],"description":"Number of results (> 0, default 10)."},"language":{"type":"string","description":"Wikipedia language edition, e.g. \"en\" (default)."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/Wikipedia.schema.json" */;
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
if(data.top_n !== undefined){
let data1 = data.top_n;
if((!((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1)))) && (typeof data1 !== "string")){
const err1 = {instancePath:instancePath+"/top_n",schemaPath:"#/properties/top_n/type",keyword:"type",params:{type: schema31.properties.top_n.type},message:"must be integer,string",schema:schema31.properties.top_n.type,parentSchema:schema31.properties.top_n,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.language !== undefined){
let data2 = data.language;
if(typeof data2 !== "string"){
const err2 = {instancePath:instancePath+"/language",schemaPath:"#/properties/language/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.language.type,parentSchema:schema31.properties.language,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
}
else {
const err3 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"query":true,"top_n":true,"language":true},"dynamicProps":false,"dynamicItems":false};

